/* games: the mail command that lists a player's boards and whose turn it is on each. */
#include <stdlib.h>
#include <strings.h>

#include "commands/job.h"
#include "commands/mailcmd.h"

enum process_status games_run(struct job *j)
{
	struct store_user u;
	struct reply_mail m;
	struct game *games = NULL;
	enum reply_status rs;
	enum process_status ps;
	size_t n = 0;
	bool found;

	ps = job_find_user(j, j->cmd.userid, &u, &found);
	if (ps != PROCESS_OK || !found)
		return ps;
	ps = job_boards_of(j, u.userid, &games, &n);
	if (ps != PROCESS_OK)
		return ps;
	rs = reply_games(&j->rc, j->in.from_addr, job_sender_name(j, u.userid), u.userid,
	    u.address[0] != '\0' && strcasecmp(u.address, j->in.from_addr) == 0, games, n, &m);
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
