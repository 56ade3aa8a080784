/*
 * seek: the mail commands `seek <userid> <password> N` (how many more
 * games the player wants, shown in the standings) and `limit <userid>
 * <password> N` (no challenge from or to the player past N active
 * boards: challenge_may_start() in challenge.c).  Both kept by seeks.h.
 */
#include <stdio.h>

#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "store/seeks.h"

_Static_assert(COMMAND_GAMES_MAX == SEEKS_MAX, "an 'n' slot holds what seeks.h keeps");

/* The confirmation: templates/notice.txt with {text}. */
static enum process_status notice(struct job *j, const char *subject, const char *text)
{
	struct reply_var v = { "text", text };
	struct reply_mail m;
	enum reply_status rs;

	rs = reply_account(&j->srv.rc, j->in.from_addr, job_sender_name(j, j->user.userid), "notice", subject, &v, 1, &m);
	return job_send(j, rs, &m);
}

/* Write userid's number of kind. */
static enum process_status set(struct job *j, enum seeks_kind kind, unsigned n)
{
	char err[SEEKS_ERR_MAX];
	enum store_status ss;

	ss = seeks_set(j->srv.st, j->srv.cfg.lock_timeout_ms, kind, j->user.userid, n, err);
	if (ss == STORE_OK)
		return PROCESS_OK;
	fprintf(stderr, "oustpbm: %s\n", err);
	job_detail(j, store_status_temporary(ss) ? "tempfail" : "failed", "%s", err);
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

/* seek <userid> <password> N (MAILCMD_LOGIN: j->user is the account). */
enum process_status seek_run(struct job *j)
{
	const char *id = j->user.userid;
	char text[400], subject[80];
	int n = j->cmd.games;
	enum process_status ps;

	ps = set(j, SEEKS_SEEK, (unsigned)n);
	if (ps != PROCESS_OK)
		return ps;
	if (n > 0)
		snprintf(text, sizeof text, "%s now seeks %d more game%s: the standings say so, for anyone looking for "
		    "an opponent.\nWhen you have enough, send \"seek %s <password> 0\".\n", id, n, n == 1 ? "" : "s", id);
	else
		snprintf(text, sizeof text, "%s seeks no more games: the standings no longer say so.\n", id);
	snprintf(subject, sizeof subject, "Oust seek %s", id);
	ps = notice(j, subject, text);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "%s seeks %d game%s", id, n, n == 1 ? "" : "s");
	return ps;
}

/*
 * limit <userid> <password> N: no challenge from or to the player once it
 * plays on N boards (0: no limit).  A limit below the boards it plays on
 * now is refused.
 */
enum process_status seek_limit_run(struct job *j)
{
	const char *id = j->user.userid;
	char text[400], subject[80];
	int n = j->cmd.games;
	unsigned long active;
	enum process_status ps;

	ps = challenge_active_boards(j, id, &active);
	if (ps != PROCESS_OK)
		return ps;
	if (n > 0 && (unsigned long)n < active)
		return job_refuse(j, NULL, "%s plays on %lu boards now: a limit of %d is below that (finish or resign "
		    "boards first, or choose %lu or more)", id, active, n, active);
	ps = set(j, SEEKS_LIMIT, (unsigned)n);
	if (ps != PROCESS_OK)
		return ps;
	if (n > 0)
		snprintf(text, sizeof text, "%s now plays on at most %d board%s at a time (%lu now): a challenge from or "
		    "to %s past that is refused.\nSend \"limit %s <password> 0\" to lift the limit.\n", id, n,
		    n == 1 ? "" : "s", active, id, id);
	else
		snprintf(text, sizeof text, "%s has no limit on boards now.\n", id);
	snprintf(subject, sizeof subject, "Oust limit %s", id);
	ps = notice(j, subject, text);
	if (ps == PROCESS_OK && n > 0)
		job_detail(j, "ok", "%s limits to %d board%s (%lu active)", id, n, n == 1 ? "" : "s", active);
	else if (ps == PROCESS_OK)
		job_detail(j, "ok", "%s lifts the limit (%lu active)", id, active);
	return ps;
}
