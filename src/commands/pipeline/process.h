/*
 * process: the mail turn processor.  Reads one mail, applies its command to
 * the store, and queues and delivers the replies.
 */
#ifndef OUSTPBM_PROCESS_H
#define OUSTPBM_PROCESS_H

#include "commands/pipeline/status.h"

/* Handle the mail on standard input, on home (main.c: -d DIR, else config_default_home()). */
enum process_status process_main(const char *home);

#endif

