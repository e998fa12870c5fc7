#include "CMicroHTTPD.h"

#include <errno.h>
#include <gnutls/gnutls.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

const uint64_t CMicroHTTPD_SIZE_UNKNOWN = MHD_SIZE_UNKNOWN;
const ssize_t CMicroHTTPD_CONTENT_READER_END_OF_STREAM = MHD_CONTENT_READER_END_OF_STREAM;
const ssize_t CMicroHTTPD_CONTENT_READER_END_WITH_ERROR = MHD_CONTENT_READER_END_WITH_ERROR;

/// libmicrohttpd's logger gets a format and a va_list, which Swift cannot take apart: the message
/// is formatted here (cut at 511 bytes), its trailing newline dropped, then passed on as a string.
static void forwardMessage(void *cls, const char *format, va_list arguments)
{
    const CMicroHTTPD_MessageTarget *target = cls;
    if (target == NULL) return;
    char message[512];
    int length = vsnprintf(message, sizeof message, format, arguments);
    if (length < 0) return;
    size_t end = strnlen(message, sizeof message);
    while (end > 0 && (message[end - 1] == '\n' || message[end - 1] == '\r')) message[--end] = '\0';
    target->logger(target->context, message);
}

struct MHD_Daemon *CMicroHTTPD_start(CMicroHTTPD_Options options, CMicroHTTPD_Callbacks callbacks)
{
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME
        | MHD_USE_ERROR_LOG;
    bool tls = options.tlsCertificate != NULL && options.tlsKey != NULL;
    if (tls) flags |= MHD_USE_TLS;
    // The port argument is ignored when MHD_OPTION_LISTEN_SOCKET hands over a bound socket.
    struct MHD_OptionItem items[] = {
        // First, so that what the options below make it say at start goes there too.
        {MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)forwardMessage, (void *)callbacks.messages},
        {MHD_OPTION_LISTEN_SOCKET, (intptr_t)options.listenSocket, NULL},
        {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)options.connectionLimit, NULL},
        {MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)options.perIPConnectionLimit, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)options.connectionTimeoutSeconds, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)options.connectionMemoryLimit, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)callbacks.completed, callbacks.context},
        {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)callbacks.uriLogger, callbacks.context},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)callbacks.notifyConnection, callbacks.context},
        // The TLS entries last, so plain HTTP ends the list before them.
        {tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, (void *)options.tlsCertificate},
        {MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)options.tlsKey},
        {options.tlsPriorities != NULL ? MHD_OPTION_HTTPS_PRIORITIES : MHD_OPTION_END, 0,
            (void *)options.tlsPriorities},
        {MHD_OPTION_END, 0, NULL},
    };
    return MHD_start_daemon(flags, 0, callbacks.acceptPolicy, callbacks.context, callbacks.handler,
        callbacks.context, MHD_OPTION_ARRAY, items, MHD_OPTION_END);
}

/// What the handshake budget of one connection keeps: its socket, its session, the bytes it may
/// still send before its handshake is done, and whether it is done.
typedef struct {
    int socket;
    gnutls_session_t session;
    size_t remaining;
    bool done;
} HandshakeBudget;

/// GnuTLS's read from the socket, as its default one (recv) but counted until the handshake is
/// done: past the budget the read fails, and so does the handshake. GnuTLS buffers a handshake
/// message whole whatever size it declares (gnutls_handshake_set_max_packet_length did not stop
/// a ClientHello declaring 16 MiB), so the bytes are bounded where they come in.
static ssize_t budgetedPull(gnutls_transport_ptr_t pointer, void *data, size_t size)
{
    HandshakeBudget *budget = pointer;
    if (!budget->done && gnutls_handshake_get_last_in(budget->session) == GNUTLS_HANDSHAKE_FINISHED) {
        budget->done = true;
    }
    if (!budget->done) {
        if (budget->remaining == 0) {
            errno = ECONNRESET;
            return -1;
        }
        if (size > budget->remaining) size = budget->remaining;
    }
    ssize_t received = recv(budget->socket, data, size, 0);
    if (received > 0 && !budget->done) budget->remaining -= (size_t)received;
    return received;
}

/// GnuTLS's read once the budget is gone: the socket again, uncounted.
static ssize_t plainPull(gnutls_transport_ptr_t pointer, void *data, size_t size)
{
    return recv((int)(intptr_t)pointer, data, size, 0);
}

void *CMicroHTTPD_limitHandshake(struct MHD_Connection *connection, size_t maxBytes)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    if (info == NULL || info->tls_session == NULL) return NULL;
    gnutls_session_t session = (gnutls_session_t)info->tls_session;
    HandshakeBudget *budget = malloc(sizeof(HandshakeBudget));
    if (budget == NULL) return NULL;
    *budget = (HandshakeBudget){gnutls_transport_get_int(session), session, maxBytes, false};
    // Only the receiving side changes: libmicrohttpd's sending side keeps its socket.
    gnutls_transport_ptr_t receive, send;
    gnutls_transport_get_ptr2(session, &receive, &send);
    gnutls_transport_set_ptr2(session, budget, send);
    gnutls_transport_set_pull_function(session, budgetedPull);
    return budget;
}

void CMicroHTTPD_releaseHandshakeBudget(struct MHD_Connection *connection, void *pointer)
{
    HandshakeBudget *budget = pointer;
    if (budget == NULL) return;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    if (info != NULL && info->tls_session != NULL) {
        gnutls_session_t session = (gnutls_session_t)info->tls_session;
        gnutls_transport_ptr_t receive, send;
        gnutls_transport_get_ptr2(session, &receive, &send);
        // Back to the socket, so nothing reads the budget once it is freed.
        gnutls_transport_set_ptr2(session, (gnutls_transport_ptr_t)(intptr_t)budget->socket, send);
        gnutls_transport_set_pull_function(session, plainPull);
    }
    free(budget);
}

uint16_t CMicroHTTPD_boundPort(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

int CMicroHTTPD_connectionSocket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

void CMicroHTTPD_useCloseDelimitedBody(struct MHD_Response *response)
{
    MHD_set_response_options(response, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END);
}

typedef struct {
    const char *const *names;
    unsigned int seen;
    bool repeated;
} RepeatSearch;

static enum MHD_Result noteHeader(void *context, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    (void)value;
    RepeatSearch *search = context;
    for (unsigned int i = 0; key != NULL && search->names[i] != NULL && i < 32; i++) {
        if (strcasecmp(key, search->names[i]) != 0) continue;
        if (search->seen & (1u << i)) {
            search->repeated = true;
            return MHD_NO;
        }
        search->seen |= 1u << i;
    }
    return MHD_YES;
}

bool CMicroHTTPD_hasRepeatedHeader(struct MHD_Connection *connection, const char *const *names)
{
    RepeatSearch search = {names, 0, false};
    MHD_get_connection_values(connection, MHD_HEADER_KIND, noteHeader, &search);
    return search.repeated;
}

/// A header name byte (RFC 9110 §5.6.2 tchar).
static bool isTokenByte(unsigned char byte)
{
    if (byte >= '0' && byte <= '9') return true;
    if ((byte | 0x20) >= 'a' && (byte | 0x20) <= 'z') return true;
    return byte != 0 && strchr("!#$%&'*+-.^_`|~", byte) != NULL;
}

typedef struct {
    /// Where the next header name must start (NULL before the first), and where the head starts and ends.
    const char *expected;
    const char *start;
    const char *end;
    bool wellFormed;
} HeadWalk;

/// Checks one header against the layout libmicrohttpd leaves: name, NUL (was the colon), spaces,
/// value, then one NUL (was LF) or two (were CR LF), then the next name. Anything else in between
/// is the rest of a value cut at a NUL, or a folded line.
static enum MHD_Result walkHeader(
    void *context, enum MHD_ValueKind kind, const char *key, size_t keySize, const char *value, size_t valueSize)
{
    (void)kind;
    HeadWalk *walk = context;
    if (key == NULL || value == NULL || keySize == 0) goto malformed;
    if (walk->expected != NULL ? key != walk->expected : (key <= walk->start || key >= walk->end || key[-1] != '\0')) goto malformed;
    if (value < key || value + valueSize >= walk->end) goto malformed;
    for (size_t i = 0; i < keySize; i++) {
        if (!isTokenByte((unsigned char)key[i])) goto malformed;
    }
    if (key[keySize] != '\0') goto malformed;
    const char *position = key + keySize + 1;
    while (position < value && (*position == ' ' || *position == '\t')) position++;
    if (position != value) goto malformed;
    // RFC 9110 §5.5: no control byte but the tab in a value. A bare CR is how a line end is faked
    // past a parser that splits on CR (RFC 9112 §2.2); the others end lines or forge them in
    // whatever later prints the value (a log, a terminal).
    for (size_t i = 0; i < valueSize; i++) {
        unsigned char byte = (unsigned char)value[i];
        if ((byte < 0x20 && byte != '\t') || byte == 0x7F) goto malformed;
    }
    position = value + valueSize;
    const char *terminator = position;
    while (position < walk->end && *position == '\0' && position - terminator < 2) position++;
    if (position == terminator) goto malformed;
    walk->expected = position;
    return MHD_YES;
malformed:
    walk->wellFormed = false;
    return MHD_NO;
}

bool CMicroHTTPD_headIsWellFormed(struct MHD_Connection *connection, const char *method)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (info == NULL || method == NULL) return false;
    HeadWalk walk = {NULL, method, method + info->header_size, true};
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, walkHeader, &walk);
    if (!walk.wellFormed) return false;
    if (walk.expected == NULL) return true;
    // After the last header only the empty line's terminator: NULs to the end of the head.
    for (const char *position = walk.expected; position < walk.end; position++) {
        if (*position != '\0' || position - walk.expected >= 2) return false;
    }
    return true;
}
