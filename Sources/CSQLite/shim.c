#include "CSQLite.h"

sqlite3_destructor_type CSQLite_transient(void)
{
    return SQLITE_TRANSIENT;
}
