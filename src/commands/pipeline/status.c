/* status: the names of the commands layer's statuses (status.h), for the log and the messages. */
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
	case PROCESS_NOINPUT:
		return "no such board";
	case PROCESS_NOUSER:
		return "no such user";
	case PROCESS_EXISTS:
		return "already exists";
	case PROCESS_IOERR:
		return "input/output error";
	case PROCESS_NOPERM:
		return "permission denied";
	case PROCESS_CANTCREAT:
		return "cannot create";
	case PROCESS_WARNING:
		return "warning";
	case PROCESS_FAILING:
		return "failing";
	case PROCESS_NOHOME:
		return "no usable home";
	case PROCESS_NOMEM:
		return "out of memory";
	case PROCESS_FULL:
		return "a file is over its size limit";
	case PROCESS_FAULT:
		return "the robot failed";
	}
	return "unknown";
}
