// sseload: the bench's load client for thousands of SSE viewers, and a trivial server for its floor.
//
//   sseload client PORT ROOM     reads commands on stdin, answers on stdout (see `command` below);
//                                posts to PORT, and opens viewers there or at any other port (a
//                                group of instances: post at one, watch at the others)
//   sseload serve PORTFILE BYTES a plain epoll server speaking the same routes (events, pointer,
//                                healthz, snapshot): every POST writes one change event of BYTES bytes
//                                of data to every stream; the same client against it is the floor
//
// One thread, one epoll set, non-blocking sockets, 127.0.0.1 only. A viewer's data is stamped with
// the clock read right after the epoll_wait that reported it, so the order in which one batch of
// ready sockets is read does not add to a viewer's latency. Every wait is bounded; both modes exit
// when standard input closes.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#define MAX_EVENTS 4096
#define POSTER_TAG UINT64_MAX
#define LISTEN_TAG (UINT64_MAX - 1)
#define STDIN_TAG (UINT64_MAX - 2)

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/// Thirty thousand viewers need as many descriptors: the soft limit goes to the hard one, and a
/// process allowed to (root) raises the hard one too.
static void raise_nofile(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    const rlim_t wanted = 65536;
    if (limit.rlim_max < wanted) {
        struct rlimit raised = {wanted, wanted};
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) return;
    }
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

static int tcp_socket(void) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    // close() sends RST and leaves no TIME_WAIT: ten thousand viewers per run keep the ports free.
    struct linger reset = {1, 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    return fd;
}

static struct sockaddr_in loopback(int port) {
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
}

/// Sends all of `data` on a non-blocking socket, waiting (bounded) when the buffer is full.
static int send_all(int fd, const char *data, size_t length) {
    double deadline = now_us() + 5e6;
    while (length > 0) {
        ssize_t sent = send(fd, data, length, MSG_NOSIGNAL);
        if (sent > 0) {
            data += sent;
            length -= (size_t)sent;
        } else if (sent < 0 && (errno == EAGAIN || errno == EINTR)) {
            if (now_us() > deadline) return -1;
            usleep(50);
        } else {
            return -1;
        }
    }
    return 0;
}

// MARK: - client

enum { CONNECTING, SENT, OPEN, CLOSED };

typedef struct {
    size_t index;
    int fd;
    int port;      // the instance this viewer watches
    int measured;  // its arrivals count in the figures (every open viewer counts for completion)
    int state;
    int headers_done;
    char head[2048];
    int head_len;
    long chunk_left;  // > 0 data bytes left; -1 a size line is next; -2 the CRLF after a chunk
    char size_line[24];
    int size_len;
    char line[48];  // the start of the current SSE line (only `id:` and `event:` are read)
    int line_len;
    long event_id;
    int event_snapshot;
    int event_change;
    long snapshot_seq;
    long long bytes;
    long recent_seq[8];  // the last ids seen with their arrival times, for an answer that comes late
    double recent_at[8];
    int recent_next;
    const char *error;
} Viewer;

static int port_number;
static char room[80];
static int epfd;
static Viewer **viewers;
static size_t viewer_count, viewer_capacity, open_count;

// The change being waited for: its id (-1 until the POST's answer tells it) and the arrivals.
static long target = -1;
static long watermark = 1L << 62;  // ids above this are remembered while the answer is pending
static long latest_seen = -1;      // the largest id any viewer has seen
static double target_sent;
static size_t target_count;    // open viewers that have the change
static size_t measured_count;  // of those, the measured ones
static double target_first, target_last;
static float *pairs;  // latency of every (change, viewer), µs
static size_t pair_count, pair_capacity;

static void pair_add(float value) {
    if (pair_count == pair_capacity) {
        pair_capacity = pair_capacity ? pair_capacity * 2 : 1 << 16;
        pairs = realloc(pairs, pair_capacity * sizeof *pairs);
        if (!pairs) abort();
    }
    pairs[pair_count++] = value;
}

static void arrived(const Viewer *v, double at) {
    target_count++;
    if (!v->measured) return;
    measured_count++;
    double latency = at - target_sent;
    pair_add((float)latency);
    if (measured_count == 1 || latency < target_first) target_first = latency;
    if (latency > target_last) target_last = latency;
}

// Every change's arrivals while recording (`watch`, `pulse`), by seq: how many viewers had it and
// when the first and the last did. A run whose viewers are spread over several client processes
// (one process holds at most the descriptor limit) joins these by seq afterwards: CLOCK_MONOTONIC
// is the machine's, the same in every process.
#define ARRIVAL_SLOTS 4096
typedef struct {
    long seq;
    long count;
    double first, last;
} Arrival;
static Arrival arrivals[ARRIVAL_SLOTS];
static int recording;

static void arrivals_reset(void) {
    for (size_t i = 0; i < ARRIVAL_SLOTS; i++) arrivals[i].seq = -1;
}

static void arrival_record(long seq, double at) {
    Arrival *slot = &arrivals[(size_t)seq % ARRIVAL_SLOTS];
    if (slot->seq != seq) *slot = (Arrival){.seq = seq, .count = 0, .first = at, .last = at};
    slot->count++;
    if (at < slot->first) slot->first = at;
    if (at > slot->last) slot->last = at;
}

/// `arrivals SEQ COUNT FIRST_US LAST_US …` in seq order, on one line.
static void arrivals_print(void) {
    long lowest = LONG_MAX;
    for (size_t i = 0; i < ARRIVAL_SLOTS; i++)
        if (arrivals[i].seq >= 0 && arrivals[i].seq < lowest) lowest = arrivals[i].seq;
    printf("arrivals");
    for (long seq = lowest; lowest != LONG_MAX && seq < lowest + ARRIVAL_SLOTS; seq++) {
        const Arrival *slot = &arrivals[(size_t)seq % ARRIVAL_SLOTS];
        if (slot->seq == seq) printf(" %ld %ld %.1f %.1f", seq, slot->count, slot->first, slot->last);
    }
    printf("\n");
}

static void viewer_close(Viewer *v, const char *why) {
    if (v->state == CLOSED) return;
    if (v->state == OPEN && v->snapshot_seq >= 0) open_count--;
    v->state = CLOSED;
    if (!v->error) v->error = why;
    epoll_ctl(epfd, EPOLL_CTL_DEL, v->fd, NULL);
    close(v->fd);
}

static void sse_line_end(Viewer *v, double at) {
    if (v->line_len == 0) {  // a blank line ends an event
        if (v->event_id >= 0) {
            long seq = v->event_id;
            if (seq > latest_seen) latest_seen = seq;
            if (v->snapshot_seq < 0) {
                if (v->event_snapshot) {
                    v->snapshot_seq = seq;
                    open_count++;
                }
            } else if (recording) {
                if (v->event_change) arrival_record(seq, at);  // not presence counts: a move's change
            } else if (seq == target) {
                arrived(v, at);
            } else if (target < 0 && seq > watermark) {
                v->recent_seq[v->recent_next] = seq;
                v->recent_at[v->recent_next] = at;
                v->recent_next = (v->recent_next + 1) % 8;
            }
        }
        v->event_id = -1;
        v->event_snapshot = 0;
        v->event_change = 0;
        return;
    }
    v->line[v->line_len < (int)sizeof v->line ? v->line_len : (int)sizeof v->line - 1] = 0;
    if (strncmp(v->line, "id: ", 4) == 0) v->event_id = strtol(v->line + 4, NULL, 10);
    else if (strncmp(v->line, "event: snapshot", 15) == 0) v->event_snapshot = 1;
    else if (strncmp(v->line, "event: change", 13) == 0) v->event_change = 1;
    v->line_len = 0;
}

static void sse_feed(Viewer *v, const char *p, size_t n, double at) {
    while (n > 0) {
        const char *newline = memchr(p, '\n', n);
        size_t length = newline ? (size_t)(newline - p) : n;
        size_t room_left = sizeof v->line - 1 - (size_t)v->line_len;
        size_t take = length < room_left ? length : room_left;
        memcpy(v->line + v->line_len, p, take);
        v->line_len += (int)take;
        if (!newline) return;
        sse_line_end(v, at);
        p = newline + 1;
        n -= length + 1;
    }
}

static void chunked_feed(Viewer *v, const char *p, size_t n, double at) {
    while (n > 0 && v->state != CLOSED) {
        if (v->chunk_left > 0) {
            size_t take = (size_t)v->chunk_left < n ? (size_t)v->chunk_left : n;
            sse_feed(v, p, take, at);
            v->chunk_left -= (long)take;
            p += take;
            n -= take;
            if (v->chunk_left == 0) v->chunk_left = -2;
        } else if (v->chunk_left == -2) {
            if (*p == '\n') v->chunk_left = -1;
            p++;
            n--;
        } else {
            char c = *p++;
            n--;
            if (c == '\n') {
                v->size_line[v->size_len] = 0;
                long size = strtol(v->size_line, NULL, 16);
                v->size_len = 0;
                if (size == 0) {
                    viewer_close(v, "stream-ended");
                    return;
                }
                v->chunk_left = size;
            } else if (c != '\r' && v->size_len < (int)sizeof v->size_line - 1) {
                v->size_line[v->size_len++] = c;
            }
        }
    }
}

static void viewer_readable(Viewer *v, double at) {
    static char buffer[1 << 18];
    for (;;) {
        ssize_t got = recv(v->fd, buffer, sizeof buffer, 0);
        if (got == 0) {
            viewer_close(v, v->headers_done ? "closed-by-server" : "closed-before-answer");
            return;
        }
        if (got < 0) {
            if (errno == EAGAIN || errno == EINTR) return;
            viewer_close(v, errno == ECONNRESET ? "reset-by-server" : "recv-error");
            return;
        }
        v->bytes += got;
        const char *p = buffer;
        size_t n = (size_t)got;
        if (!v->headers_done) {
            size_t take = n;
            if (v->head_len + take > sizeof v->head - 1) take = sizeof v->head - 1 - (size_t)v->head_len;
            memcpy(v->head + v->head_len, p, take);
            v->head_len += (int)take;
            v->head[v->head_len] = 0;
            char *end = strstr(v->head, "\r\n\r\n");
            if (!end) {
                if (v->head_len >= (int)sizeof v->head - 1) viewer_close(v, "header-too-long");
                if ((size_t)got < sizeof buffer) return;
                continue;
            }
            size_t head_bytes = (size_t)(end + 4 - v->head);
            if (strncmp(v->head, "HTTP/1.1 200", 12) != 0 || !strcasestr(v->head, "text/event-stream")) {
                viewer_close(v, "not-an-event-stream");
                return;
            }
            // A body without chunk framing runs until the connection closes: one endless chunk.
            if (!strcasestr(v->head, "chunked")) v->chunk_left = LONG_MAX;
            v->headers_done = 1;
            v->state = OPEN;
            size_t consumed = head_bytes - ((size_t)v->head_len - take);
            p += consumed;
            n -= consumed;
        }
        chunked_feed(v, p, n, at);
        if (v->state == CLOSED || (size_t)got < sizeof buffer) return;
    }
}

// SSELOAD_SHAPES=1920x1080,390x844,…: the window sizes viewers report, dealt out in turn (viewer i
// reports the (i mod n)-th), so a room's viewers can be spread over the server's shape classes.
static const char *viewer_shape(size_t index) {
    static char shapes[16][24];
    static size_t count = 0;
    static int read_shapes = 0;
    if (!read_shapes) {
        read_shapes = 1;
        const char *list = getenv("SSELOAD_SHAPES");
        while (list && *list && count < 16) {
            size_t length = strcspn(list, ",");
            if (length > 0 && length < sizeof shapes[0]) {
                memcpy(shapes[count], list, length);
                shapes[count++][length] = 0;
            }
            list += length + (list[length] == ',');
        }
    }
    return count ? shapes[index % count] : NULL;
}

static void viewer_event(Viewer *v, uint32_t events, double at) {
    if (v->state == CONNECTING) {
        if (events & (EPOLLERR | EPOLLHUP)) {
            viewer_close(v, "connect-failed");
            return;
        }
        if (events & EPOLLOUT) {
            char request[320];
            const char *shape = viewer_shape(v->index);
            int length = snprintf(request, sizeof request,
                "GET /api/rooms/%s/events%s%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: text/event-stream\r\n\r\n",
                room, shape ? "?shape=" : "", shape ? shape : "", v->port);
            if (send(v->fd, request, (size_t)length, MSG_NOSIGNAL) != length) {
                viewer_close(v, "send-failed");
                return;
            }
            v->state = SENT;
            struct epoll_event change = {.events = EPOLLIN, .data.u64 = v->index};
            epoll_ctl(epfd, EPOLL_CTL_MOD, v->fd, &change);
        }
    }
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) viewer_readable(v, at);
}

// The poster: one keep-alive connection, one request at a time; reconnected when the server closed it.
static void poster_connect(void);
static int poster_fd = -1;
static char answer[1 << 16];
static size_t answer_len;
static int answer_status;
static long answer_seq;
static double answer_at;
static int answer_ready;

static void poster_readable(double at) {
    for (;;) {
        ssize_t got = recv(poster_fd, answer + answer_len, sizeof answer - 1 - answer_len, 0);
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
            // The server ended the keep-alive connection (its idle timeout): the next request reconnects.
            epoll_ctl(epfd, EPOLL_CTL_DEL, poster_fd, NULL);
            close(poster_fd);
            poster_fd = -1;
            answer_len = 0;
            return;
        }
        if (got < 0) break;
        answer_len += (size_t)got;
        if (answer_len >= sizeof answer - 1) break;
    }
    answer[answer_len] = 0;
    char *end = strstr(answer, "\r\n\r\n");
    if (!end) return;
    char *length_header = strcasestr(answer, "\r\nContent-Length:");
    long length = length_header && length_header < end ? strtol(length_header + 17, NULL, 10) : 0;
    size_t total = (size_t)(end + 4 - answer) + (size_t)length;
    if (answer_len < total) return;
    answer_status = (int)strtol(answer + 9, NULL, 10);
    char *seq = strstr(end + 4, "\"seq\":");
    answer_seq = seq && seq < answer + total ? strtol(seq + 6, NULL, 10) : -1;
    memmove(answer, answer + total, answer_len - total);
    answer_len -= total;
    answer_at = at;
    answer_ready = 1;
}

/// One epoll_wait and the handling of what it reported; `timeout_ms` as epoll_wait.
static void pump(int timeout_ms) {
    static struct epoll_event events[MAX_EVENTS];
    int count = epoll_wait(epfd, events, MAX_EVENTS, timeout_ms);
    double at = now_us();
    for (int i = 0; i < count; i++) {
        uint64_t tag = events[i].data.u64;
        if (tag == POSTER_TAG) poster_readable(at);
        else if (tag < viewer_count) viewer_event(viewers[tag], events[i].events, at);
    }
}

static int wait_ms(double deadline) {
    double left = (deadline - now_us()) / 1000;
    return left <= 0 ? 0 : left > 200 ? 200 : (int)left + 1;
}

static void drain_until(double deadline) {
    while (now_us() < deadline) pump(wait_ms(deadline));
}

static void poster_connect(void) {
    poster_fd = tcp_socket();
    struct sockaddr_in address = loopback(port_number);
    connect(poster_fd, (struct sockaddr *)&address, sizeof address);
    struct epoll_event watch = {.events = EPOLLIN, .data.u64 = POSTER_TAG};
    epoll_ctl(epfd, EPOLL_CTL_ADD, poster_fd, &watch);
    double deadline = now_us() + 5e6;
    for (;;) {  // wait until connected (writable)
        int error = 0;
        socklen_t size = sizeof error;
        getsockopt(poster_fd, SOL_SOCKET, SO_ERROR, &error, &size);
        if (error) {
            fprintf(stderr, "sseload: cannot connect to 127.0.0.1:%d\n", port_number);
            exit(3);
        }
        struct sockaddr_in peer;
        socklen_t peer_size = sizeof peer;
        if (getpeername(poster_fd, (struct sockaddr *)&peer, &peer_size) == 0) break;
        if (now_us() > deadline) exit(3);
        usleep(1000);
    }
}

/// Sends one request on the poster; returns when it was sent (µs).
static double poster_send(const char *method, const char *path, const char *body) {
    char request[2048];
    int length;
    // SSELOAD_IDEMPOTENCY=1: every POST carries an Idempotency-Key of its own, as the page's do
    // (what remembering the answers costs the server is measured against posts without one).
    static long keys_sent = 0;
    static int keyed = -1;
    if (keyed < 0) keyed = getenv("SSELOAD_IDEMPOTENCY") != NULL;
    char key[64] = "";
    if (body && keyed) snprintf(key, sizeof key, "Idempotency-Key: %d-%ld\r\n", (int)getpid(), ++keys_sent);
    if (body)
        length = snprintf(request, sizeof request,
            "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n%sContent-Length: %zu\r\n\r\n%s",
            method, path, port_number, key, strlen(body), body);
    else
        length = snprintf(request, sizeof request, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", method, path,
            port_number);
    answer_ready = 0;
    // A kept-alive connection left idle is closed by the server (StackWeb's header deadline is 10 s):
    // seen here before writing, it is replaced rather than written into and waited on in vain.
    char probe;
    if (poster_fd >= 0) {
        ssize_t peeked = recv(poster_fd, &probe, 1, MSG_PEEK | MSG_DONTWAIT);
        if (peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
            epoll_ctl(epfd, EPOLL_CTL_DEL, poster_fd, NULL);
            close(poster_fd);
            poster_fd = -1;
            answer_len = 0;
        }
    }
    if (poster_fd < 0) poster_connect();
    double sent = now_us();
    if (send_all(poster_fd, request, (size_t)length) != 0) {
        fprintf(stderr, "sseload: cannot send a request\n");
        exit(3);
    }
    return sent;
}

static int wait_answer(double timeout_us) {
    double deadline = now_us() + timeout_us;
    while (!answer_ready && now_us() < deadline) pump(wait_ms(deadline));
    return answer_ready;
}

static int compare_floats(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static double rank(const float *sorted, size_t n, double p) {
    if (n == 0) return -1;
    size_t r = (size_t)((p / 100.0) * (double)n + 0.999999999);
    if (r < 1) r = 1;
    if (r > n) r = n;
    return sorted[r - 1];
}

static void print_series(const char *name, const float *values, size_t n) {
    printf("%s", name);
    for (size_t i = 0; i < n; i++) printf(" %.1f", values[i]);
    printf("\n");
}

/// `open N TIMEOUT_S [PORT [MEASURED]]`: opens N more viewers at PORT (the poster's by default)
/// in waves of 250 (the listen backlog is finite); a viewer without its snapshot TIMEOUT_S after
/// its wave started counts as refused, and a wave that is refused whole ends the command. With
/// MEASURED 0 the viewers are waited for but left out of the figures (the owner's own viewers when
/// only the other instances' are measured).
static void command_open(long wanted, double timeout_s, int port, int measured) {
    double deadline = 0;
    long opened = 0, failed = 0;
    const char *reasons[8] = {0};
    long reason_counts[8] = {0};
    while (opened + failed < wanted) {
        deadline = now_us() + timeout_s * 1e6;
        size_t first = viewer_count;
        long wave = wanted - opened - failed < 250 ? wanted - opened - failed : 250;
        for (long i = 0; i < wave; i++) {
            if (viewer_count == viewer_capacity) {
                viewer_capacity = viewer_capacity ? viewer_capacity * 2 : 1024;
                viewers = realloc(viewers, viewer_capacity * sizeof *viewers);
            }
            Viewer *v = calloc(1, sizeof *v);
            v->index = viewer_count;
            v->port = port;
            v->measured = measured;
            v->chunk_left = -1;
            v->event_id = -1;
            v->snapshot_seq = -1;
            for (int k = 0; k < 8; k++) v->recent_seq[k] = -1;
            v->fd = tcp_socket();
            if (v->fd < 0) {
                v->state = CLOSED;
                v->error = "socket-failed";
            } else {
                struct sockaddr_in address = loopback(port);
                if (connect(v->fd, (struct sockaddr *)&address, sizeof address) != 0 && errno != EINPROGRESS) {
                    close(v->fd);
                    v->state = CLOSED;
                    v->error = "connect-failed";
                } else {
                    struct epoll_event watch = {.events = EPOLLOUT | EPOLLIN, .data.u64 = viewer_count};
                    epoll_ctl(epfd, EPOLL_CTL_ADD, v->fd, &watch);
                }
            }
            viewers[viewer_count++] = v;
        }
        for (;;) {
            int pending = 0;
            for (size_t i = first; i < viewer_count; i++)
                if (viewers[i]->state != CLOSED && viewers[i]->snapshot_seq < 0) pending = 1;
            if (!pending || now_us() >= deadline) break;
            pump(wait_ms(deadline));
        }
        long wave_failed = 0;
        for (size_t i = first; i < viewer_count; i++) {
            Viewer *v = viewers[i];
            if (v->state != CLOSED && v->snapshot_seq >= 0) {
                opened++;
                continue;
            }
            viewer_close(v, "no-snapshot-in-time");
            failed++;
            wave_failed++;
            for (int k = 0; k < 8; k++) {
                if (!reasons[k] || strcmp(reasons[k], v->error) == 0) {
                    reasons[k] = v->error;
                    reason_counts[k]++;
                    break;
                }
            }
        }
        if (wave_failed == wave) break;  // the server refuses; more waves would be refused too
    }
    printf("ok %ld %ld", opened, failed);
    for (int k = 0; k < 8 && reasons[k]; k++) printf(" %s:%ld", reasons[k], reason_counts[k]);
    printf("\n");
}

/// `get K PATH`: K round trips of a GET on the poster's keep-alive connection, µs each.
static void command_get(long rounds, const char *path) {
    float *samples = calloc((size_t)rounds + 1, sizeof *samples);
    long done = 0;
    int status = 0;
    for (long i = 0; i < rounds; i++) {
        double sent = poster_send("GET", path, NULL);
        if (!wait_answer(5e6)) break;
        status = answer_status;
        samples[done++] = (float)(answer_at - sent);
    }
    print_series("samples", samples, (size_t)done);
    printf("ok %ld %d\n", done, status);
    free(samples);
}

/// Sends one pointer sample and waits for its answer and for its change at every open viewer.
/// Returns 1 when a change was measured, 0 when nothing changed, -1 on a refusal or a timeout.
static int pointer_change(const char *viewer_id, const char *phase, double x, double y, double t, double timeout_us,
    int measure, float *answer_us, int *status) {
    char path[160], body[256];
    snprintf(path, sizeof path, "/api/rooms/%s/pointer", room);
    snprintf(body, sizeof body,
        "{\"viewer\":\"%s\",\"events\":[{\"type\":\"%s\",\"pointer\":1,\"x\":%.2f,\"y\":%.2f,\"t\":%.1f}]}",
        viewer_id, phase, x, y, t);
    target = -1;
    target_count = measured_count = 0;
    target_first = target_last = 0;
    size_t pairs_before = pair_count;
    target_sent = poster_send("POST", path, body);
    double deadline = target_sent + timeout_us;
    if (!wait_answer(timeout_us)) return -1;
    *status = answer_status;
    *answer_us = (float)(answer_at - target_sent);
    if (answer_status != 200) return -1;
    if (answer_seq <= watermark) return 0;  // nothing changed: no event
    target = answer_seq;
    for (size_t i = 0; i < viewer_count; i++) {  // events that came before the answer
        Viewer *v = viewers[i];
        if (v->state != OPEN) continue;
        for (int k = 0; k < 8; k++)
            if (v->recent_seq[k] == target) arrived(v, v->recent_at[k]);
    }
    while (target_count < open_count && now_us() < deadline) pump(wait_ms(deadline));
    int complete = target_count >= open_count;
    watermark = target;
    target = -1;
    for (size_t i = 0; i < viewer_count; i++) memset(viewers[i]->recent_seq, 0xff, sizeof viewers[i]->recent_seq);
    if (!measure) pair_count = pairs_before;
    return complete ? 1 : -1;
}

/// `drag VIEWER N INTERVAL_MS TIMECAP_S X Y`: a down at (X, Y), then up to N moves (x = X + 20 +
/// i % 40: past the tap slop, a new place each time), one every INTERVAL_MS at most and each
/// only once the previous one reached every viewer, then a slow up.
static void command_drag(const char *viewer_id, long moves, double interval_ms, double cap_s, double x, double y) {
    float *answers = calloc((size_t)moves + 1, sizeof(float));
    float *firsts = calloc((size_t)moves + 1, sizeof(float));
    float *lasts = calloc((size_t)moves + 1, sizeof(float));
    long measured = 0, lost = 0, refused = 0, unchanged = 0;
    double t = 0;
    float answer_us;
    int status = 0;
    pair_count = 0;
    watermark = latest_seen;
    // The down: answered at once (straightening the held card may change nothing).
    pointer_change(viewer_id, "down", x, y, t, 5e6, 0, &answer_us, &status);
    double started = now_us();
    for (long i = 1; i <= moves && now_us() - started < cap_s * 1e6; i++) {
        t += interval_ms;
        size_t pairs_before = pair_count;
        int outcome = pointer_change(viewer_id, "move", x + 20 + (double)(i % 40), y, t, 5e6, 1, &answer_us, &status);
        if (outcome == 1) {
            answers[measured] = answer_us;
            firsts[measured] = (float)target_first;
            lasts[measured] = (float)target_last;
            measured++;
        } else if (outcome == 0) {
            unchanged++;
        } else if (status != 200) {
            refused++;
            drain_until(now_us() + (status == 429 ? 1e6 : 1e4));
        } else {
            lost++;
            pair_count = pairs_before;
        }
        drain_until(target_sent + interval_ms * 1000);
    }
    double elapsed = (now_us() - started) / 1e6;
    pointer_change(viewer_id, "up", x + 20, y, t + 200, 5e6, 0, &answer_us, &status);
    drain_until(now_us() + 2e5);
    qsort(pairs, pair_count, sizeof *pairs, compare_floats);
    printf("pairs %zu %.1f %.1f %.1f %.1f %.1f\n", pair_count, rank(pairs, pair_count, 50), rank(pairs, pair_count, 90),
        rank(pairs, pair_count, 99), rank(pairs, pair_count, 99.9), pair_count ? pairs[pair_count - 1] : -1.0);
    print_series("answer", answers, (size_t)measured);
    print_series("first", firsts, (size_t)measured);
    print_series("last", lasts, (size_t)measured);
    printf("ok %ld %ld %ld %ld %.3f %zu\n", measured, lost, refused, unchanged, elapsed, open_count);
    free(answers);
    free(firsts);
    free(lasts);
}

/// `watch SECONDS`: reads for SECONDS, recording every change's arrivals, then prints them.
static void command_watch(double seconds) {
    arrivals_reset();
    recording = 1;
    drain_until(now_us() + seconds * 1e6);
    recording = 0;
    arrivals_print();
    printf("ok %zu\n", open_count);
}

/// `pulse VIEWER N INTERVAL_MS X Y AFTER_S`: a down at (X, Y), then N moves on a fixed clock, one
/// every INTERVAL_MS whatever the viewers (an open loop: other processes' viewers cannot hold it
/// back), recording arrivals until AFTER_S past the last; then the up. Prints `sent SEQ T_US …`
/// for every move that made a change, and the arrivals.
static void command_pulse(const char *viewer_id, long moves, double interval_ms, double x, double y, double after_s) {
    char path[160], body[256];
    snprintf(path, sizeof path, "/api/rooms/%s/pointer", room);
    double *sent_at = calloc((size_t)moves + 1, sizeof *sent_at);
    long *sent_seq = calloc((size_t)moves + 1, sizeof *sent_seq);
    long sent = 0, refused = 0;
    snprintf(body, sizeof body, "{\"viewer\":\"%s\",\"events\":[{\"type\":\"down\",\"pointer\":1,\"x\":%.2f,\"y\":%.2f,\"t\":0}]}",
        viewer_id, x, y);
    poster_send("POST", path, body);
    if (!wait_answer(5e6) || answer_status != 200) {
        printf("error the down was not answered with 200\n");
        free(sent_at);
        free(sent_seq);
        return;
    }
    arrivals_reset();
    recording = 1;
    long last_seq = answer_seq;
    double started = now_us();
    for (long i = 1; i <= moves; i++) {
        drain_until(started + (double)i * interval_ms * 1000);
        snprintf(body, sizeof body,
            "{\"viewer\":\"%s\",\"events\":[{\"type\":\"move\",\"pointer\":1,\"x\":%.2f,\"y\":%.2f,\"t\":%.1f}]}",
            viewer_id, x + 20 + (double)(i % 40), y, (double)i * interval_ms);
        double at = poster_send("POST", path, body);
        if (!wait_answer(5e6) || answer_status != 200) {
            refused++;
            continue;
        }
        if (answer_seq > last_seq) {
            sent_seq[sent] = answer_seq;
            sent_at[sent++] = at;
            last_seq = answer_seq;
        }
    }
    drain_until(now_us() + after_s * 1e6);
    recording = 0;
    snprintf(body, sizeof body, "{\"viewer\":\"%s\",\"events\":[{\"type\":\"up\",\"pointer\":1,\"x\":%.2f,\"y\":%.2f,\"t\":%.1f}]}",
        viewer_id, x + 20, y, (double)(moves + 20) * interval_ms);
    poster_send("POST", path, body);
    wait_answer(5e6);
    printf("sent");
    for (long i = 0; i < sent; i++) printf(" %ld %.1f", sent_seq[i], sent_at[i]);
    printf("\n");
    arrivals_print();
    printf("ok %ld %ld %zu\n", sent, refused, open_count);
    free(sent_at);
    free(sent_seq);
}

static void command_drain(double seconds) {
    long long before = 0, after = 0;
    for (size_t i = 0; i < viewer_count; i++) before += viewers[i]->bytes;
    drain_until(now_us() + seconds * 1e6);
    for (size_t i = 0; i < viewer_count; i++) after += viewers[i]->bytes;
    printf("ok %lld %zu\n", after - before, open_count);
}

static int run_client(int port, const char *room_name) {
    port_number = port;
    snprintf(room, sizeof room, "%s", room_name);
    epfd = epoll_create1(EPOLL_CLOEXEC);
    poster_connect();
    char line[512];
    setvbuf(stdout, NULL, _IOFBF, 1 << 20);
    while (fgets(line, sizeof line, stdin)) {
        char name[32] = {0}, text[256] = {0};
        double a = 0, b = 0, c = 0, d = 0, e = 0;
        if (sscanf(line, "%31s", name) != 1) continue;
        int fields = sscanf(line, "%*s %lf %lf %lf %lf", &a, &b, &c, &d);
        if (strcmp(name, "open") == 0 && fields >= 2) {
            command_open((long)a, b, fields >= 3 ? (int)c : port_number, fields >= 4 ? (int)d : 1);
        } else if (strcmp(name, "get") == 0 && sscanf(line, "%*s %lf %255s", &a, text) == 2) {
            command_get((long)a, text);
        } else if (strcmp(name, "drag") == 0 &&
                   sscanf(line, "%*s %255s %lf %lf %lf %lf %lf", text, &a, &b, &c, &d, &e) == 6) {
            command_drag(text, (long)a, b, c, d, e);
        } else if (strcmp(name, "watch") == 0 && fields >= 1) {
            command_watch(a);
        } else if (strcmp(name, "pulse") == 0 &&
                   sscanf(line, "%*s %255s %lf %lf %lf %lf %lf", text, &a, &b, &c, &d, &e) == 6) {
            command_pulse(text, (long)a, b, c, d, e);
        } else if (strcmp(name, "drain") == 0 && sscanf(line, "%*s %lf", &a) == 1) {
            command_drain(a);
        } else if (strcmp(name, "count") == 0) {
            printf("ok %zu\n", open_count);
        } else if (strcmp(name, "quit") == 0) {
            break;
        } else {
            printf("error unknown command %s", line);
        }
        fflush(stdout);
    }
    return 0;
}

// MARK: - floor server

typedef struct {
    int fd;
    int stream;
    char in[8192];
    size_t in_len;
} Peer;

static int run_server(const char *port_file, long change_bytes) {
    int listener = tcp_socket();
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = loopback(0);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 4096) != 0) return 2;
    socklen_t size = sizeof address;
    getsockname(listener, (struct sockaddr *)&address, &size);
    char temporary[512];
    snprintf(temporary, sizeof temporary, "%s.tmp", port_file);
    FILE *out = fopen(temporary, "w");
    fprintf(out, "%d\n", ntohs(address.sin_port));
    fclose(out);
    rename(temporary, port_file);

    epfd = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event watch = {.events = EPOLLIN, .data.u64 = LISTEN_TAG};
    epoll_ctl(epfd, EPOLL_CTL_ADD, listener, &watch);
    struct epoll_event watch_stdin = {.events = EPOLLIN, .data.u64 = STDIN_TAG};
    epoll_ctl(epfd, EPOLL_CTL_ADD, 0, &watch_stdin);

    size_t capacity = 1 << 16;
    Peer **peers = calloc(capacity, sizeof *peers);  // by descriptor
    int *streams = calloc(capacity, sizeof *streams);
    size_t stream_count = 0;
    long seq = 0;
    char *event = malloc((size_t)change_bytes + 256);
    char *data = malloc((size_t)change_bytes + 1);
    memset(data, 'x', (size_t)change_bytes);
    data[change_bytes] = 0;
    const char *stream_head =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nTransfer-Encoding: chunked\r\n\r\n";
    double end_at = now_us() + 900e6;
    static struct epoll_event events[MAX_EVENTS];
    while (now_us() < end_at) {
        int count = epoll_wait(epfd, events, MAX_EVENTS, 1000);
        for (int i = 0; i < count; i++) {
            uint64_t tag = events[i].data.u64;
            if (tag == STDIN_TAG) {
                char ignored[256];
                if (read(0, ignored, sizeof ignored) <= 0) return 0;
                continue;
            }
            if (tag == LISTEN_TAG) {
                for (;;) {
                    int fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
                    if (fd < 0) break;
                    if ((size_t)fd >= capacity) {
                        close(fd);
                        continue;
                    }
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    peers[fd] = calloc(1, sizeof(Peer));
                    peers[fd]->fd = fd;
                    struct epoll_event peer_watch = {.events = EPOLLIN, .data.u64 = (uint64_t)fd};
                    epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &peer_watch);
                }
                continue;
            }
            Peer *peer = peers[tag];
            if (!peer) continue;
            ssize_t got = recv(peer->fd, peer->in + peer->in_len, sizeof peer->in - peer->in_len, 0);
            if (got <= 0) {
                if (got < 0 && errno == EAGAIN) continue;
                if (peer->stream)
                    for (size_t k = 0; k < stream_count; k++)
                        if (streams[k] == peer->fd) {
                            streams[k] = streams[--stream_count];
                            break;
                        }
                epoll_ctl(epfd, EPOLL_CTL_DEL, peer->fd, NULL);
                close(peer->fd);
                peers[tag] = NULL;
                free(peer);
                continue;
            }
            peer->in_len += (size_t)got;
            for (;;) {  // every complete request in the buffer
                peer->in[peer->in_len < sizeof peer->in ? peer->in_len : sizeof peer->in - 1] = 0;
                char *end = strstr(peer->in, "\r\n\r\n");
                if (!end) break;
                char *length_header = strcasestr(peer->in, "\r\nContent-Length:");
                long length = length_header && length_header < end ? strtol(length_header + 17, NULL, 10) : 0;
                size_t total = (size_t)(end + 4 - peer->in) + (size_t)length;
                if (peer->in_len < total) break;
                char reply[512];
                if (strncmp(peer->in, "GET ", 4) == 0 && strstr(peer->in, "/events ") && strstr(peer->in, "/events ") < end) {
                    char chunk[256];
                    int body = snprintf(chunk, sizeof chunk, "retry: 1000\n\nid: %ld\nevent: snapshot\ndata: {}\n\n", seq);
                    int n = snprintf(reply, sizeof reply, "%s%x\r\n%s\r\n", stream_head, body, chunk);
                    send_all(peer->fd, reply, (size_t)n);
                    peer->stream = 1;
                    streams[stream_count++] = peer->fd;
                } else if (strncmp(peer->in, "POST ", 5) == 0) {
                    seq++;
                    char json[64];
                    int body = snprintf(json, sizeof json, "{\"seq\":%ld}", seq);
                    int n = snprintf(reply, sizeof reply,
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", body, json);
                    send_all(peer->fd, reply, (size_t)n);
                    char framed[160];
                    int header = snprintf(framed, sizeof framed, "id: %ld\nevent: change\ndata: ", seq);
                    long event_bytes = header + change_bytes + 2;
                    int prefix = sprintf(event, "%lx\r\n%s", event_bytes, framed);
                    memcpy(event + prefix, data, (size_t)change_bytes);
                    memcpy(event + prefix + change_bytes, "\n\n\r\n", 4);
                    size_t event_len = (size_t)prefix + (size_t)change_bytes + 4;
                    for (size_t k = 0; k < stream_count; k++) send(streams[k], event, event_len, MSG_NOSIGNAL | MSG_DONTWAIT);
                } else {
                    const char *json = strstr(peer->in, "/healthz ") ? "{\"status\":\"ok\"}"
                                                                     : "{\"seq\":0,\"cards\":[{\"x\":512,\"y\":384}]}";
                    int n = snprintf(reply, sizeof reply,
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s", strlen(json),
                        json);
                    send_all(peer->fd, reply, (size_t)n);
                }
                memmove(peer->in, peer->in + total, peer->in_len - total);
                peer->in_len -= total;
            }
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    raise_nofile();
    if (argc == 4 && strcmp(argv[1], "client") == 0) return run_client(atoi(argv[2]), argv[3]);
    if (argc == 4 && strcmp(argv[1], "serve") == 0) return run_server(argv[2], atol(argv[3]));
    fprintf(stderr, "usage: sseload client PORT ROOM | sseload serve PORTFILE CHANGE_BYTES\n");
    return 2;
}
