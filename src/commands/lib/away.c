/* away: a player away on vacation, in a line.  See away.h. */
#include "commands/lib/away.h"

#include <stdio.h>

#include "commands/pipeline/job.h"
#include "store/vacations.h"

enum process_status away_line(struct job *j, const char *userid, char *buf, size_t size)
{
	struct vacation v;
	enum store_status ss;
	char until[REPLY_TIME_SIZE];

	buf[0] = '\0';
	ss = vacations_find(j->srv.st, userid, &v);
	if (ss == STORE_NOT_FOUND || (ss == STORE_OK && !vacation_away(&v, (int64_t)j->srv.now)))
		return PROCESS_OK;
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the vacations");
	snprintf(buf, size, "%s is away (vacation) until %s: %s's clocks stop meanwhile.\n\n", userid,
	    reply_time_str(v.end, until), userid);
	return PROCESS_OK;
}
