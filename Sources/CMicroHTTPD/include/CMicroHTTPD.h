#ifndef CMICROHTTPD_H
#define CMICROHTTPD_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stdint.h>

/// Limits and switches for one daemon, passed as a struct because Swift cannot call the variadic
/// MHD_start_daemon.
typedef struct {
    unsigned int connectionLimit;
    unsigned int perIPConnectionLimit;
    unsigned int connectionTimeoutSeconds;
    size_t connectionMemoryLimit;
    /// Listening socket made by the caller (bound and listening); MHD owns it from then on.
    int listenSocket;
    /// PEM certificate chain and private key for HTTPS through libmicrohttpd's GnuTLS; both NULL
    /// for plain HTTP. libmicrohttpd keeps the pointers: they must outlive the daemon.
    const char *tlsCertificate;
    const char *tlsKey;
    /// The GnuTLS priority string for HTTPS (which versions and suites); NULL: GnuTLS's default.
    const char *tlsPriorities;
} CMicroHTTPD_Options;

/// Called with the raw request-target before MHD decodes it; its result becomes the request's
/// context pointer (`*con_cls`).
typedef void *(*CMicroHTTPD_URILogger)(void *context, const char *uri, struct MHD_Connection *connection);

/// Called with each message libmicrohttpd writes about itself (a malformed request, a TLS
/// handshake that failed, a connection closed on an error), formatted, without its newline.
typedef void (*CMicroHTTPD_MessageLogger)(void *context, const char *message);

/// Where libmicrohttpd's messages go. The caller keeps it for the daemon's lifetime and frees it
/// after MHD_stop_daemon.
typedef struct {
    CMicroHTTPD_MessageLogger logger;
    void *context;
} CMicroHTTPD_MessageTarget;

/// The daemon's callbacks. The accept policy and the connection notices let the server count its
/// connections and close the overdue ones itself (libmicrohttpd stops accepting at its limit
/// instead of refusing, and has no deadline for a request head).
typedef struct {
    MHD_AccessHandlerCallback handler;
    MHD_RequestCompletedCallback completed;
    CMicroHTTPD_URILogger uriLogger;
    MHD_AcceptPolicyCallback acceptPolicy;
    MHD_NotifyConnectionCallback notifyConnection;
    /// Passed to every callback above.
    void *context;
    /// libmicrohttpd's own messages (MHD_OPTION_EXTERNAL_LOGGER), instead of its standard error.
    const CMicroHTTPD_MessageTarget *messages;
} CMicroHTTPD_Callbacks;

/// Starts a daemon with an internal polling thread, epoll and suspend/resume (docs/architecture.md
/// says why each), and TLS when the options carry a certificate.
/// Why a shim: MHD_start_daemon is variadic, and Swift cannot call C variadic functions.
struct MHD_Daemon *CMicroHTTPD_start(CMicroHTTPD_Options options, CMicroHTTPD_Callbacks callbacks);

/// The port MHD actually bound (for port 0). Why a shim: MHD_get_daemon_info returns a union pointer.
uint16_t CMicroHTTPD_boundPort(struct MHD_Daemon *daemon);

/// The connection's socket, for writing event bytes straight to a parked stream. Why a shim:
/// MHD_get_connection_info returns a union pointer.
int CMicroHTTPD_connectionSocket(struct MHD_Connection *connection);

/// Sends the response without chunked framing, its body ending when the connection closes
/// (still an HTTP/1.1 reply). Why a shim: MHD_set_response_options is variadic.
void CMicroHTTPD_useCloseDelimitedBody(struct MHD_Response *response);

/// Whether the request carries any of `names` (NULL-terminated, compared without case) more than
/// once. Why a shim: one pass over the headers in C, without making a Swift string per header.
bool CMicroHTTPD_hasRepeatedHeader(struct MHD_Connection *connection, const char *const *names);

/// Whether the request head, as libmicrohttpd parsed it in place, holds only well-formed header
/// lines: no line folded onto the one before (obs-fold), no control byte but the tab in a value,
/// header names made of token characters. libmicrohttpd 0.9.75 joins folded lines and cuts
/// a value at a NUL without a word, so this walks the head it left in its read buffer: `method`
/// (what the access handler was given) is where the head starts. Why a shim: it reads
/// libmicrohttpd's buffer by pointer, header by header, with the sizes only C sees.
bool CMicroHTTPD_headIsWellFormed(struct MHD_Connection *connection, const char *method);

/// Lets the connection send at most `maxBytes` before its TLS handshake is done; past them the
/// handshake fails and libmicrohttpd closes the connection. Called as the connection opens, before
/// its handshake; returns the budget to release when it closes (NULL for plain HTTP).
/// Why a shim: libmicrohttpd exposes the GnuTLS session only through a union pointer and has no
/// option for this bound; GnuTLS buffers a handshake message whole, whatever size it declares (a
/// ClientHello declaring 16 MiB cost ~15 MB), so the bytes are counted where GnuTLS reads them.
void *CMicroHTTPD_limitHandshake(struct MHD_Connection *connection, size_t maxBytes);

/// Frees what `CMicroHTTPD_limitHandshake` returned, as the connection closes. Why a shim: as above.
void CMicroHTTPD_releaseHandshakeBudget(struct MHD_Connection *connection, void *budget);

/// Why shims: these are macros (or a cast macro) that Swift does not import.
extern const uint64_t CMicroHTTPD_SIZE_UNKNOWN;
extern const ssize_t CMicroHTTPD_CONTENT_READER_END_OF_STREAM;
extern const ssize_t CMicroHTTPD_CONTENT_READER_END_WITH_ERROR;

#endif
