/* games: the mail command that lists a player's boards and whose turn it is on each. */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "commands/job.h"
#include "commands/mailcmd.h"
#include "store/vacations.h"

enum process_status vacation_line(struct job *j, const char *userid, char *buf, size_t size)
{
	struct vacation v;
	enum store_status ss;
	char until[REPLY_TIME_SIZE];

	buf[0] = '\0';
	ss = vacations_find(j->st, userid, &v);
	if (ss == STORE_NOT_FOUND || (ss == STORE_OK && !vacation_away(&v, (int64_t)j->now)))
		return PROCESS_OK;
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the vacations");
	snprintf(buf, size, "%s is away (vacation) until %s: %s's clocks stop meanwhile.\n\n", userid,
	    reply_time_str(v.end, until), userid);
	return PROCESS_OK;
}

enum process_status games_run(struct job *j)
{
	struct store_user u;
	struct reply_mail m;
	struct game *games = NULL;
	enum reply_status rs;
	enum process_status ps;
	size_t n = 0;
	bool found;
	char away[200];

	ps = job_find_user(j, j->cmd.userid, &u, &found);
	if (ps != PROCESS_OK || !found)
		return ps;
	ps = job_boards_of(j, u.userid, &games, &n);
	if (ps != PROCESS_OK)
		return ps;
	ps = vacation_line(j, u.userid, away, sizeof away);
	if (ps != PROCESS_OK)
		goto out;
	rs = reply_games(&j->rc, j->in.from_addr, job_sender_name(j, u.userid), u.userid,
	    u.address[0] != '\0' && strcasecmp(u.address, j->in.from_addr) == 0, games, n, away, &m);
	if (rs != REPLY_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	ps = job_reply(j, &m);
	reply_mail_release(&m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "%zu board%s of %s", n, n == 1 ? "" : "s", u.userid);
out:
	free(games);
	return ps;
}
