/* filecaps: the capped files of the home (filecaps.h). */
#include "store/filecaps.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "store/accounts.h"
#include "store/audience.h"
#include "store/bounces.h"
#include "store/pending.h"
#include "store/ratings.h"
#include "store/reviews.h"
#include "store/seeks.h"
#include "store/seen.h"
#include "store/digests.h"
#include "store/settings.h"
#include "store/throttle.h"
#include "store/tokens.h"
#include "store/tourns.h"
#include "store/vacations.h"

/* The names without a header constant are those of store.c, seeks.c and tokens.c. */
static const struct filecap table[FILECAPS_N] = {
	{ ACCOUNTS_FILE, ACCOUNTS_FILE_MAX, "one-time codes (forgot, address)", 0, 0, 0 },
	{ AUDIENCE_FILE, AUDIENCE_FILE_MAX, "subscriptions to every board (subscribe all, notify on)", 0, 0, 0 },
	{ "reserved", STORE_USERS_FILE_MAX, "user ids of closed accounts (signoff)", 0, 0, 0 },
	{ VACATIONS_FILE, VACATIONS_FILE_MAX, "vacations", 0, 0, 0 },
	{ "seeking", SEEKS_FILE_MAX, "seek", 0, 0, 0 },
	{ "limits", SEEKS_FILE_MAX, "limit", 0, 0, 0 },
	{ "registrations", STORE_REGISTRATIONS_FILE_MAX, "registrations of the last hour", 0, 0, 0 },
	{ THROTTLE_FILE, THROTTLE_FILE_MAX, "wrong passwords of the last hour", 0, 0, 0 },
	{ SEEN_FILE, SEEN_FILE_MAX, "handled mails of the last week", 0, 0, 0 },
	{ RATINGS_FILE, RATINGS_FILE_MAX, "ratings", 0, 0, 0 },
	{ RATINGS_STATE_FILE, RATINGS_FILE_MAX, "ratings", 0, 0, 0 },
	{ "users", STORE_USERS_FILE_MAX, "accounts (register)", 0, 0, 0 },
	{ PENDING_FILE, PENDING_FILE_MAX, "registrations waiting for their confirm", 0, 0, 0 },
	{ BOUNCES_FILE, BOUNCES_FILE_MAX, "addresses that bounced", 0, 0, 0 },
	{ REVIEWS_QUEUE_FILE, REVIEWS_FILE_CAP, "game reviews asked for", 0, 0, 0 },
	{ "tokens", TOKENS_FILE_MAX, "reply tokens renewed or turned off (tokens)", 0, 0, 0 },
	{ SETTINGS_FILE, SETTINGS_FILE_MAX, "players' settings (set)", 0, 0, 0 },
	{ DIGESTS_FILE, DIGESTS_FILE_MAX, "the last digest sent to each player (cleanup)", 0, 0, 0 },
	{ FILECAPS_ROBOT_QUEUE, FILECAPS_ROBOT_QUEUE_BYTES, "board mails waiting for a think slot (robot-mail)", 0,
	    FILECAPS_ROBOT_QUEUE_COUNT, 0 },
	{ TOURNS_DIR, TOURNS_DIR_BYTES, "tournaments (tournament; max_tournaments_per_director each)", 0,
	    TOURNS_DIR_COUNT, 0 },
};

void filecaps_usage(struct store *st, struct filecap out[FILECAPS_N])
{
	char path[4096];
	struct stat sb;
	size_t i;

	for (i = 0; i < FILECAPS_N; i++) {
		out[i] = table[i];
		if (table[i].count_cap > 0) {
			(void)store_folder_usage(st, table[i].file, &out[i].count, &out[i].size);
			continue;
		}
		snprintf(path, sizeof path, "%s/%s", store_home(st), table[i].file);
		if (stat(path, &sb) == 0)
			out[i].size = (long long)sb.st_size;
	}
}

enum store_status filecaps_prune(struct store *st, const struct config *cfg, time_t now, unsigned *dropped)
{
	enum store_status ss;
	unsigned n = 0;

	*dropped = 0;
	ss = accounts_prune(st, (int64_t)now, &n);
	*dropped += n;
	if (ss == STORE_OK) {
		ss = throttle_prune(st, cfg, now, &n);
		*dropped += n;
	}
	return ss;
}
