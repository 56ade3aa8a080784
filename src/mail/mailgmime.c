/* mailgmime: one module's hold on GMime, for mailin and mailout (mailgmime.h). */
#include "mail/mailgmime.h"

#include <gmime/gmime.h>

void mailgmime_hold(bool *held)
{
	if (!*held) {
		g_mime_init();	/* reference counted: each module holds its own */
		*held = true;
	}
}

void mailgmime_release(bool *held)
{
	if (*held) {
		g_mime_shutdown();
		*held = false;
	}
}
