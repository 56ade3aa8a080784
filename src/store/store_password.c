/* store_password: passwords, their yescrypt hashes (crypt(3)) and the check of one (store.h). */
#include "base/testhook.h"
#include "store/store_int.h"

#include <assert.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <crypt.h>

bool store_password_ok(const char *password)
{
	size_t i;

	if (password == NULL || password[0] == '\0')
		return false;
	for (i = 0; password[i] != '\0'; i++)
		if (i >= STORE_PASSWORD_MAX || password[i] < '!' || password[i] > '~')
			return false;
	return true;
}

/* yescrypt hash of password with a fresh salt into out. */
enum store_status store_password_hash(struct store *st, const char *password, char out[STORE_HASH_MAX + 1])
{
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];
	struct crypt_data *cd;
	enum store_status status = STORE_OK;
	const char *h, *test = testhook_env("OUSTPBM_TEST_SALT");
	char fixed[16] = { 0 };

	/*
	 * OUSTPBM_TEST_SALT: the golden tests' salt, as OUSTPBM_TEST_TIME fixes
	 * their times, so that the reply tokens bound to the hash are the same
	 * on every run (replytoken.h)
	 */
	if (test != NULL && test[0] != '\0')
		snprintf(fixed, sizeof fixed, "%s", test);
	if (crypt_gensalt_rn("$y$", st->password_cost, test != NULL && test[0] != '\0' ? fixed : NULL,
	    test != NULL && test[0] != '\0' ? (int)sizeof fixed : 0, setting, sizeof setting) == NULL) {
		set_err(st, "cannot make a password salt: %s", strerror(errno));
		return store_status_of_errno(errno);
	}
	cd = calloc(1, sizeof *cd);
	if (cd == NULL)
		return store_nomem(st);
	h = crypt_r(password, setting, cd);
	if (h == NULL || h[0] != '$' || strlen(h) > STORE_HASH_MAX) {
		/* our own setting: the computation failed (yescrypt out of memory), try later */
		set_err(st, "cannot compute a password hash with setting '%s' (out of memory?)", setting);
		status = STORE_TEMPFAIL;
	} else {
		memcpy(out, h, strlen(h) + 1);
	}
	explicit_bzero(cd, sizeof *cd);
	free(cd);
	return status;
}

enum store_status store_user_check_password(const struct store_user *user, const char *password, bool *right)
{
	char want[STORE_HASH_MAX + 1], got[STORE_HASH_MAX + 1];
	unsigned char diff = 0;
	struct crypt_data *cd;
	const char *h;
	size_t i, hl;
	bool computed = false;

	*right = false;
	if (!store_password_ok(password) || user->hash[0] != '$')
		return STORE_OK;
	cd = calloc(1, sizeof *cd);
	if (cd == NULL)
		return STORE_TEMPFAIL;
	memset(want, 0, sizeof want);
	memset(got, 0, sizeof got);
	memcpy(want, user->hash, strnlen(user->hash, STORE_HASH_MAX));
	h = crypt_r(password, user->hash, cd);
	/*
	 * "*0"/"*1" are crypt's failure tokens, never a match.  yescrypt gives
	 * the same EINVAL for a hash it cannot allocate for (ulimit -v, a high
	 * cost) as for a damaged one: neither says the password is wrong.
	 */
	if (h != NULL && h[0] == '$' && (hl = strlen(h)) <= STORE_HASH_MAX) {
		memcpy(got, h, hl);
		computed = true;
	}
	/* every byte of both fixed-size buffers, whatever matched so far */
	for (i = 0; i < sizeof want; i++)
		diff |= (unsigned char)(want[i] ^ got[i]);
	explicit_bzero(cd, sizeof *cd);
	explicit_bzero(got, sizeof got);
	free(cd);
	if (!computed)
		return STORE_TEMPFAIL;
	*right = diff == 0;
	return STORE_OK;
}

/* A hash as store_password_hash() makes it: fits a users line. */
bool store_hash_ok(const char *hash)
{
	return hash[0] == '$' && strlen(hash) <= STORE_HASH_MAX && strpbrk(hash, ":\n") == NULL;
}

bool store_hash_current(const struct store *st, const char *hash)
{
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];
	const char *end;
	size_t n;

	if (crypt_gensalt_rn("$y$", st->password_cost, NULL, 0, setting, sizeof setting) == NULL)
		return true;	/* no new hash could be made either */
	/* "$y$" then the parameters up to the next '$' */
	end = strchr(setting + 3, '$');
	if (end == NULL)
		return true;
	n = (size_t)(end + 1 - setting);
	return strncmp(hash, setting, n) == 0;
}

