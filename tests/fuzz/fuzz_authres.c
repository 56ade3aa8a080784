/*
 * libFuzzer harness: Authentication-Results (authres.h), read as the mail
 * pipeline reads every mail when trusted_authserv_id is set: the input
 * as a whole mail (the topmost trusted field found and judged), and as
 * one field's value (parsed and judged).
 */
#include <stddef.h>
#include <stdint.h>

#include "mail/authres.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct authres ar;
	char why[AUTHRES_WHY_MAX];

	(void)authres_check((const char *)data, size, "mx.example.net", "alice@example.org", &ar, why);
	if (authres_parse((const char *)data, size, &ar) == MAIL_OK)
		(void)authres_judge(&ar, "example.org", why);
	return 0;
}
