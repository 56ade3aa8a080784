/*
 * mailgmime: a module's hold on GMime.  g_mime_init() counts its calls
 * and g_mime_shutdown() undoes one, so mailin and mailout each hold their
 * own: the first mailgmime_hold() of a module initialises GMime, its
 * mailgmime_release() gives that back.  Extra calls do nothing.
 */
#ifndef OUSTPBM_MAILGMIME_H
#define OUSTPBM_MAILGMIME_H

#include <stdbool.h>

/* Take a hold on GMime unless *held says the module has one; sets *held. */
void mailgmime_hold(bool *held);

/* Give the module's hold back, if *held; clears *held. */
void mailgmime_release(bool *held);

#endif
