/*
 * libFuzzer harness: delivery status notifications (dsn_parse), as the
 * mail pipeline reads every automatic mail that arrives.
 */
#include <stddef.h>
#include <stdint.h>

#include "mail/dsn.h"
#include "mail/mailin.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	mailin_init();	/* GMime once for the whole run */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dsn d;

	if (dsn_parse((const char *)data, size, &d) == MAIL_OK)
		(void)dsn_failed_count(&d);
	return 0;
}
