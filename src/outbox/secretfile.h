/*
 * secretfile: the password of a mail server read from its file in the
 * home (smtp_password_file, imap_password_file: config.h), one reader for
 * both transports.  The file's first line is the password; the rest is
 * not read.  No message names the password, only the file.
 */
#ifndef OUSTPBM_SECRETFILE_H
#define OUSTPBM_SECRETFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"

#define SECRETFILE_MAX 1024	/* bytes read from the file */

/*
 * The first line of file (relative to home unless absolute), the value
 * of the configuration key named key, into out; false with why ("cannot
 * open imap_password_file 'x': ...") if it cannot be read or does not
 * start with 1..CONFIG_SECRET_MAX characters.  Every copy read is wiped.
 */
bool secretfile_read(const char *key, const char *file, const char *home, char out[CONFIG_SECRET_MAX + 1],
    char *why, size_t whylen);

#endif
