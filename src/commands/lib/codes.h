/*
 * codes: a one-time code of an account (store/accounts.h: a new password's, a new
 * address's) issued, written, verified and refused, for the mail commands
 * that send or take one (forgot, reset, address, confirm).
 */
#ifndef OUSTPBM_CODES_H
#define OUSTPBM_CODES_H

#include <stdbool.h>

#include "commands/pipeline/job.h"
#include "store/accounts.h"

/*
 * Refuse a one-time code that is not right (store/accounts.h's verdict):
 * expired, used, stale, another account's (counted by the throttle) or
 * wrong (counted); again says how to get a new one.
 */
enum process_status codes_refuse(struct job *j, const struct store_user *u, int verdict, const char *again);

/*
 * The account write of a one-time code (job.h's job_account_write for
 * job_commit_account): arg is its struct accounts_code.
 */
enum store_status codes_write(struct job *j, const char *token, const char *expect, const void *arg);

/*
 * A one-time code of kind (store/accounts.h) issued to u: the code into
 * code (ACCOUNTS_CODE_LEN + 1 bytes), its record into *rec and the time it
 * expires into expires (GAMEFILE_TIME_SIZE bytes).  *ok false after the
 * failure reply; or a failure.
 */
enum process_status codes_issue(struct job *j, int kind, const struct store_user *u, char *code,
    struct accounts_code *rec, char *expires, bool *ok);

/*
 * Find userid's account (into *u) and check the one-time code of kind
 * (store/accounts.h; the code is cmd.password) against it: *verdict and
 * *rec as accounts_code_verify gives them.  *ok false after the job was
 * answered (no such account); or a failure.
 */
enum process_status codes_verify(struct job *j, int kind, const char *userid, struct store_user *u,
    int *verdict, struct accounts_code *rec, bool *ok);

#endif
