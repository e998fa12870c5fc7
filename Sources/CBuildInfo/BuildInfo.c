#include "CBuildInfo.h"

// Written by `make build`, `make release` and `make deb` (the Makefile's build-info), absent otherwise.
#if __has_include("commit.h")
#include "commit.h"
#endif

#ifndef STACKWEB_COMMIT
#define STACKWEB_COMMIT ""
#endif

const char *const CBuildInfo_commit = STACKWEB_COMMIT;
