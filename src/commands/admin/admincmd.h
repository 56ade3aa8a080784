/*
 * admincmd: the handlers of the admin commands, one per row of main.c's
 * table, and nothing else (what they share is admin.h's).  A handler gets
 * the run prepared as its row asks (CMD_HOME: oustpbm.conf loaded and the
 * home opened in a->srv, the log lines prefixed with the time and the
 * command) and returns the status main.c turns into the exit status.
 */
#ifndef OUSTPBM_ADMINCMD_H
#define OUSTPBM_ADMINCMD_H

#include "commands/admin/admin.h"

/* The handlers, one per row of main.c's table, each in admin/admin_<name>.c. */
enum process_status admin_adduser_run(struct admin *a);
enum process_status admin_passwd_run(struct admin *a);
enum process_status admin_deluser_run(struct admin *a);
enum process_status admin_list_run(struct admin *a);
enum process_status admin_show_run(struct admin *a);
enum process_status admin_cleanup_run(struct admin *a);
enum process_status admin_robot_run(struct admin *a);
enum process_status admin_robot_mail_run(struct admin *a);
enum process_status admin_web_run(struct admin *a);
enum process_status admin_fsck_run(struct admin *a);
enum process_status admin_edit_run(struct admin *a);
enum process_status admin_ratings_run(struct admin *a);
enum process_status admin_status_run(struct admin *a);
enum process_status admin_init_run(struct admin *a);
enum process_status admin_retire_run(struct admin *a);
enum process_status admin_delboard_run(struct admin *a);
enum process_status admin_export_run(struct admin *a);
enum process_status admin_import_run(struct admin *a);
enum process_status admin_fetch_run(struct admin *a);
/* admin_outbox.c: flush, outbox [retry], and requeue, the old name of outbox retry */
enum process_status admin_flush_run(struct admin *a);
enum process_status admin_outbox_run(struct admin *a);
enum process_status admin_requeue_run(struct admin *a);

#endif
