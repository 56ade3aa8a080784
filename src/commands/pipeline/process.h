/*
 * process: the mail turn processor.  Reads one mail, applies its command to
 * the store, and queues and delivers the replies.
 */
#ifndef OUSTPBM_PROCESS_H
#define OUSTPBM_PROCESS_H

enum process_status {
	PROCESS_OK = 0,		/* handled (also a refused command: the sender got an error reply) */
	PROCESS_DROPPED,	/* automatic mail or abuse: logged, not answered */
	PROCESS_TEMPFAIL,	/* nothing changed; deliver it again later */
	PROCESS_DATAERR,	/* the message cannot be parsed at all */
	PROCESS_USAGE,		/* bad command line */
	PROCESS_CONFIG,		/* bad configuration */
	PROCESS_SOFTWARE	/* internal error */
};

/* Handle the mail on standard input, on home (main.c: -d DIR, else config_default_home()). */
enum process_status process_main(const char *home);

const char *process_status_str(enum process_status s);

#endif
