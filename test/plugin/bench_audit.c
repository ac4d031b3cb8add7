/*
 * BENCH_AUDIT: auditbench's own minimal audit plugin, for testing the path a supplied library takes
 * (AUDITBENCH_PLUGIN_DIR, a *.cnf beside it, install, measure, uninstall). Not for production use.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 * Copyright (C) 2026 the auditbench authors.
 *
 * It is compiled against MariaDB's plugin headers (mysql/plugin.h, mysql/plugin_audit.h from libmariadbd-dev),
 * which are GPL version 2, and it is loaded into the server's process: GPL-2.0 for this file, not the project's own
 * licence, is the honest choice. This program is free software; you can redistribute it and/or modify it under the
 * terms of the GNU General Public License version 2 as published by the Free Software Foundation. It is distributed
 * WITHOUT ANY WARRANTY; see the GNU General Public License for more details.
 *
 * Each statement's end (general STATUS event) and each connect and disconnect becomes one line in the format of
 * MariaDB's server_audit file log, which src/plugins/logs/server-audit-log.ts parses:
 *   20261203 20:30:00,host,user,client host,connection id,query id,QUERY,db,'escaped text',error code
 * Variables: bench_audit_logging (dynamic, default OFF) opens and closes the file; bench_audit_file (read-only, a
 * startup option, default bench_audit.log, relative to the datadir) names it.
 */
#define MYSQL_DYNAMIC_PLUGIN 1
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <mysql/plugin.h>
#include <mysql/plugin_audit.h>

static char *log_path;
static char logging;
static FILE *log_file;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char server_host[256];

/* Appends text to out as server_audit quotes a query: backslash before ' and \, control characters escaped. */
static size_t quote(char *out, size_t room, const char *text, size_t length) {
  size_t n = 0;
  for (size_t i = 0; i < length && n + 3 < room; i++) {
    char c = text[i];
    const char *escaped = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
    if (escaped) {
      out[n++] = escaped[0];
      out[n++] = escaped[1];
    } else {
      if (c == '\'' || c == '\\') out[n++] = '\\';
      out[n++] = c;
    }
  }
  out[n] = '\0';
  return n;
}

/* general_user is "priv_user[user] @ host [ip]": the login user is inside the first brackets, the host after "@ ". */
static void user_and_host(const char *text, size_t length, char *user, char *host, size_t room) {
  const char *open = memchr(text, '[', length);
  const char *close = open ? memchr(open, ']', length - (size_t)(open - text)) : NULL;
  const char *at = memchr(text, '@', length);
  size_t u = open && close ? (size_t)(close - open - 1) : 0;
  snprintf(user, room, "%.*s", (int)u, open ? open + 1 : "");
  size_t h = 0;
  const char *start = at ? at + 2 : NULL;
  while (start && start + h < text + length && start[h] != ' ' && start[h] != '[') h++;
  snprintf(host, room, "%.*s", (int)h, start ? start : "");
}

static void write_line(const char *user, const char *host, unsigned long id, unsigned long long query_id,
                       const char *operation, const char *db, size_t db_length, const char *object, int code) {
  char stamp[32];
  time_t now = time(NULL);
  struct tm local;
  strftime(stamp, sizeof stamp, "%Y%m%d %H:%M:%S", localtime_r(&now, &local));
  pthread_mutex_lock(&log_lock);
  if (log_file) {
    fprintf(log_file, "%s,%s,%s,%s,%lu,%llu,%s,%.*s,%s,%d\n", stamp, server_host, user, host, id, query_id,
            operation, (int)db_length, db ? db : "", object, code);
    fflush(log_file);
  }
  pthread_mutex_unlock(&log_lock);
}

static void notify(MYSQL_THD thd, unsigned int event_class, const void *event) {
  char user[128], host[128];
  (void)thd;
  if (!logging) return;
  if (event_class == MYSQL_AUDIT_GENERAL_CLASS) {
    const struct mysql_event_general *e = event;
    if (e->event_subclass != MYSQL_AUDIT_GENERAL_STATUS || !e->general_query || !e->general_query_length) return;
    static __thread char text[16384];
    text[0] = '\'';
    size_t n = quote(text + 1, sizeof text - 2, e->general_query, e->general_query_length);
    text[n + 1] = '\'';
    text[n + 2] = '\0';
    user_and_host(e->general_user ? e->general_user : "", e->general_user_length, user, host, sizeof user);
    write_line(user, host, e->general_thread_id, e->query_id, "QUERY", e->database.str, e->database.length, text,
               e->general_error_code);
  } else if (event_class == MYSQL_AUDIT_CONNECTION_CLASS) {
    const struct mysql_event_connection *e = event;
    const char *operation = e->event_subclass == MYSQL_AUDIT_CONNECTION_CONNECT      ? (e->status ? "FAILED_CONNECT" : "CONNECT")
                            : e->event_subclass == MYSQL_AUDIT_CONNECTION_DISCONNECT ? "DISCONNECT"
                                                                                      : "CHANGEUSER";
    snprintf(user, sizeof user, "%.*s", (int)e->user_length, e->user ? e->user : "");
    snprintf(host, sizeof host, "%.*s", (int)e->host_length, e->host ? e->host : "");
    if (!host[0]) snprintf(host, sizeof host, "%.*s", (int)e->ip_length, e->ip ? e->ip : "");
    write_line(user, host, e->thread_id, 0, operation, e->database.str, e->database.length, "", e->status);
  }
}

/* bench_audit_logging: ON opens the file for appending, OFF closes it. */
static void update_logging(MYSQL_THD thd, struct st_mysql_sys_var *var, void *target, const void *save) {
  (void)thd;
  (void)var;
  char on = *(const char *)save;
  pthread_mutex_lock(&log_lock);
  if (on && !log_file) log_file = fopen(log_path, "a");
  if (!on && log_file) {
    fclose(log_file);
    log_file = NULL;
  }
  *(char *)target = on && log_file != NULL;
  pthread_mutex_unlock(&log_lock);
}

static MYSQL_SYSVAR_BOOL(logging, logging, PLUGIN_VAR_OPCMDARG, "Write the audit log (ON) or not (OFF)", NULL,
                         update_logging, 0);
static MYSQL_SYSVAR_STR(file, log_path, PLUGIN_VAR_READONLY | PLUGIN_VAR_RQCMDARG,
                        "The audit log file, relative to the datadir; a startup option", NULL, NULL,
                        "bench_audit.log");
static struct st_mysql_sys_var *variables[] = {MYSQL_SYSVAR(logging), MYSQL_SYSVAR(file), NULL};

static int start(void *plugin) {
  (void)plugin;
  if (gethostname(server_host, sizeof server_host - 1) != 0) strcpy(server_host, "localhost");
  return 0;
}

static int finish(void *plugin) {
  (void)plugin;
  pthread_mutex_lock(&log_lock);
  if (log_file) fclose(log_file);
  log_file = NULL;
  pthread_mutex_unlock(&log_lock);
  return 0;
}

static struct st_mysql_audit descriptor = {
    MYSQL_AUDIT_INTERFACE_VERSION, NULL, notify, {MYSQL_AUDIT_GENERAL_CLASSMASK | MYSQL_AUDIT_CONNECTION_CLASSMASK}};

maria_declare_plugin(bench_audit){
    MYSQL_AUDIT_PLUGIN,   &descriptor, "BENCH_AUDIT", "auditbench", "auditbench's test audit plugin",
    PLUGIN_LICENSE_GPL,   start,       finish,        0x0100,       NULL,
    variables,            "1.0",       MariaDB_PLUGIN_MATURITY_EXPERIMENTAL,
} maria_declare_plugin_end;
