/* status: the names of the statuses of status.h, for the log and the messages. */
#include "commands/pipeline/status.h"

const char *process_status_str(enum process_status s)
{
	switch (s) {
	case PROCESS_OK:
		return "handled";
	case PROCESS_DROPPED:
		return "dropped";
	case PROCESS_TEMPFAIL:
		return "temporary failure";
	case PROCESS_DATAERR:
		return "unparsable message";
	case PROCESS_USAGE:
		return "usage";
	case PROCESS_CONFIG:
		return "configuration error";
	case PROCESS_SOFTWARE:
		return "internal error";
	case PROCESS_RETIRED:
		return "server retired";
	}
	return "unknown";
}

const char *admin_status_str(enum admin_status s)
{
	switch (s) {
	case ADMIN_OK: return "ok";
	case ADMIN_USAGE: return "usage";
	case ADMIN_DATAERR: return "bad data";
	case ADMIN_NOINPUT: return "no such board";
	case ADMIN_NOUSER: return "no such user";
	case ADMIN_EXISTS: return "already exists";
	case ADMIN_TEMPFAIL: return "temporary failure";
	case ADMIN_IOERR: return "output error";
	case ADMIN_CONFIG: return "configuration error";
	case ADMIN_SOFTWARE: return "internal error";
	case ADMIN_NOPERM: return "home owned by another user";
	case ADMIN_CANTCREAT: return "cannot create";
	case ADMIN_STATUS_WARNING: return "warnings";
	case ADMIN_STATUS_FAILING: return "failing";
	case ADMIN_RETIRED: return "server retired";
	}
	return "unknown";
}
