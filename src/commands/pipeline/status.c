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
