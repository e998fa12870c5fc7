#ifndef CQRENCODE_H
#define CQRENCODE_H

// No functions of our own: QRcode_encodeData takes fixed arguments, so Swift calls libqrencode
// directly (the QR code on the wall that names a room's add page).
#include <qrencode.h>

#endif
