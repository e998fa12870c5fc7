#ifndef CHIREDIS_H
#define CHIREDIS_H

// No functions of our own: the calls the server makes (redisCommandArgv, redisAppendCommandArgv,
// redisGetReply) take fixed arguments, so Swift calls hiredis directly.
#include <hiredis/hiredis.h>

#endif
