#ifndef SWITCHYARD_CMICROHTTPD_SHIM_H
#define SWITCHYARD_CMICROHTTPD_SHIM_H
// System headers microhttpd.h expects to be included first.
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>
// Linux's epoll and eventfd, which Swift's Glibc module does not export: MicroHTTP watches parked
// (suspended) connections with them, beside the epoll set libmicrohttpd runs itself.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif

// Swift cannot call C variadic functions. Each `swy_` wrapper below exists only to call one
// variadic libmicrohttpd function with a fixed, typed argument list, so that every option value
// reaches MHD with the exact C type the manual gives (a wrong type reads garbage and crashes).

/// Callback type of MHD_OPTION_URI_LOG_CALLBACK (the header declares it inline, not as a typedef).
typedef void *(*swy_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Why: MHD_start_daemon is variadic. Starts a daemon on an already bound, listening socket with
/// the options MicroHTTP uses. The logger is the first option so that MHD never writes to stderr
/// itself. A `thread_pool_size` of 0 or 1 means one internal polling thread, no pool.
/// The accept policy callback is how MicroHTTP stops accepting at shutdown: MHD_quiesce_daemon in
/// 0.9.75 with epoll races its own polling threads (both remove the listen socket from the epoll
/// set; quiesce panics on the resulting ENOENT), which aborted the process in our tests.
static inline struct MHD_Daemon *swy_start_daemon(
    unsigned int flags, int listen_fd, unsigned int thread_pool_size, unsigned int connection_limit,
    unsigned int per_ip_connection_limit, unsigned int connection_timeout_seconds,
    size_t connection_memory_limit, MHD_AccessHandlerCallback access_handler, void *cls,
    MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback notify_connection,
    swy_uri_log_callback uri_log, MHD_LogCallback logger, MHD_AcceptPolicyCallback accept_policy) {
    return MHD_start_daemon(
        flags, 0, accept_policy, cls, access_handler, cls,
        MHD_OPTION_EXTERNAL_LOGGER, logger, cls,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
        MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size > 1 ? thread_pool_size : 0u,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, cls,
        MHD_OPTION_URI_LOG_CALLBACK, uri_log, cls,
        MHD_OPTION_END);
}

/// Why: MHD_get_daemon_info is variadic. Returns the port the daemon listens on (0 if unknown).
static inline uint16_t swy_daemon_bind_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// Why: MHD_get_connection_info is variadic. Returns the client's address, or NULL.
static inline const struct sockaddr *swy_connection_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// Why: MHD_get_connection_info is variadic. Returns the per-socket context pointer that the
/// MHD_OPTION_NOTIFY_CONNECTION callback stored for this connection, or NULL.
static inline void *swy_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// Why: MHD_get_connection_info is variadic. Returns the connection's socket, or -1.
static inline int swy_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

#endif
