#ifndef CSQLITE_H
#define CSQLITE_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT: bound text is copied by SQLite before the call returns, so Swift may free its
/// buffer at once. Why a shim: the constant is a macro casting -1 to a function pointer, which
/// Swift does not import.
sqlite3_destructor_type CSQLite_transient(void);

#endif
