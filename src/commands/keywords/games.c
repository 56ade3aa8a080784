/*
 * games: the mail command that lists a player's boards and whose turn it
 * is on each, filtered; the vacation line it shares with whoami.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/lib/away.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "store/vacations.h"

enum process_status games_run(struct job *j)
{
	struct store_user u;
	struct reply_mail m;
	struct reply_games_list list;
	struct game *games = NULL;
	enum reply_games_filter filter = REPLY_GAMES_ALL;
	enum reply_status rs;
	enum process_status ps;
	size_t n = 0;
	bool found;
	char away[200];

	if (j->cmd.text[0] != '\0' && !reply_games_filter_parse(j->cmd.text, &filter))
		return job_refuse(j, NULL, "'%s' is not a filter of games: use active, next, finished or all "
		    "(or none: all)", j->cmd.text);
	ps = job_find_user(j, j->cmd.userid, &u, &found);
	if (ps != PROCESS_OK || !found)
		return ps;
	ps = job_boards_of(j, u.userid, &games, &n);
	if (ps != PROCESS_OK)
		return ps;
	ps = away_line(j, u.userid, away, sizeof away);
	if (ps != PROCESS_OK)
		goto out;
	list = (struct reply_games_list){ u.userid, u.address[0] != '\0' && strcasecmp(u.address, j->in.from_addr) == 0,
	    filter, games, n, away };
	rs = reply_games(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, u.userid) }, &list, &m);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "%zu board%s of %s%s%s", n, n == 1 ? "" : "s", u.userid,
		    filter != REPLY_GAMES_ALL ? ", listed: " : "", filter != REPLY_GAMES_ALL ?
		    reply_games_filter_str(filter) : "");
out:
	free(games);
	return ps;
}
