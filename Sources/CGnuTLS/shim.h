#ifndef CGNUTLS_H
#define CGNUTLS_H

// No functions of our own: the digests the server computes (gnutls_hash_fast, gnutls_hmac_fast)
// take fixed arguments, so Swift calls GnuTLS directly. GnuTLS is there already: libmicrohttpd
// serves HTTPS through it.
#include <gnutls/crypto.h>

#endif
