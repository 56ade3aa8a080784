/* boardquiet: the board mails a player's settings leave out.  See boardquiet.h. */
#include "commands/pipeline/boardquiet.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/msg.h"
#include "store/settings.h"

bool boardquiet_for_digest(const struct game *g, const struct reply_event *ev, const char *userid)
{
	const struct reply_event *last = ev;

	if (game_over(g) || game_is_open(g) || strcasecmp(game_player_to_move(g), userid) != 0)
		return false;
	/* an answer to the player's own mail always comes (the robot's or a queue's answer in it too) */
	if (ev->actor == NULL || strcasecmp(ev->actor, userid) == 0)
		return false;
	if (ev->what != REPLY_MOVE && ev->what != REPLY_SWAP)
		return false;
	/* the mover's words are for now, as a chat is; so is a note for the player alone */
	if (ev->comment != NULL && ev->comment[0] != '\0')
		return false;
	if (ev->note != NULL && ev->note_to != NULL && strcasecmp(ev->note_to, userid) == 0)
		return false;
	while (last->then != NULL)
		last = last->then;
	return last->actor != NULL && strcasecmp(last->actor, userid) != 0;
}

bool boardquiet_skip(struct store *st, const struct game *g, const struct reply_event *ev,
    const struct audience_member *m)
{
	const char *userid = m->user.userid;
	bool queue_owner, digest_turn;
	struct settings s;
	char err[SETTINGS_ERR_MAX];

	if (m->via != AUDIENCE_PLAYER || game_over(g) || game_is_open(g))
		return false;
	queue_owner = ev->then != NULL && ev->then->queued && ev->then->actor != NULL &&
	    strcasecmp(ev->then->actor, userid) == 0 && strcasecmp(ev->actor, userid) != 0;
	digest_turn = boardquiet_for_digest(g, ev, userid);
	if (!queue_owner && !digest_turn)
		return false;
	if (settings_find(st, userid, &s, err) != STORE_OK) {
		/* the mail goes: a mail too many is better than a turn nobody hears of */
		msg_warn("cannot read the settings of %s, the board mail goes: %s", userid, err);
		return false;
	}
	return queue_owner ? !s.queued_mail : s.digest_n > 0;
}
