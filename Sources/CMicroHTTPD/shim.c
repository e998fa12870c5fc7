#include "CMicroHTTPD.h"

#include <strings.h>

const uint64_t CMicroHTTPD_SIZE_UNKNOWN = MHD_SIZE_UNKNOWN;
const ssize_t CMicroHTTPD_CONTENT_READER_END_OF_STREAM = MHD_CONTENT_READER_END_OF_STREAM;
const ssize_t CMicroHTTPD_CONTENT_READER_END_WITH_ERROR = MHD_CONTENT_READER_END_WITH_ERROR;

struct MHD_Daemon *CMicroHTTPD_start(
    CMicroHTTPD_Options options,
    MHD_AccessHandlerCallback handler, void *handlerContext,
    MHD_RequestCompletedCallback completed, void *completedContext,
    CMicroHTTPD_URILogger uriLogger, void *uriLoggerContext)
{
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME
        | MHD_USE_ERROR_LOG;
    // The port argument is ignored when MHD_OPTION_LISTEN_SOCKET hands over a bound socket.
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handlerContext,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)options.listenSocket,
        MHD_OPTION_CONNECTION_LIMIT, options.connectionLimit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, options.perIPConnectionLimit,
        MHD_OPTION_CONNECTION_TIMEOUT, options.connectionTimeoutSeconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, options.connectionMemoryLimit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completedContext,
        MHD_OPTION_URI_LOG_CALLBACK, uriLogger, uriLoggerContext,
        MHD_OPTION_END);
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
