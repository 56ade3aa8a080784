/*
 * owner: root acts as the home's owner.  Every file of a home must belong
 * to its owner (store_open refuses another user): a command run as root
 * that wrote in it left root's files behind, and every later mail, run as
 * the owner, was held on them.  So, run as root on a home that another
 * user owns, oustpbm becomes that user, groups included, before it opens
 * anything: initgroups (or setgroups to the home's group when the owner
 * has no passwd entry), setgid, setuid, in that order (setuid last: it
 * ends the right to change the others), each checked, and then checked
 * again as a whole: both ids the owner's, and no way back to root
 * (CERT POS36-C, POS37-C).  `su` needs a login shell and Debian has no
 * sudo: the admin just runs oustpbm as root.
 */
#ifndef OUSTPBM_OWNER_H
#define OUSTPBM_OWNER_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

/*
 * Become the owner of path when run as root and it belongs to another
 * user.  parent: a path that does not exist yet (init's new home) goes by
 * the folder it will be made in.  HOME, USER and LOGNAME are set to the
 * owner's when it has a passwd entry (an $EDITOR run by edit).
 * STORE_OK with *switched false when there was nothing to do (not root,
 * the path is root's, or there is none), true when now the path's owner;
 * STORE_NOT_OWNER when a step failed: err says why, the credentials may be
 * half changed, so the caller exits.
 */
enum store_status owner_become(const char *path, bool parent, char *err, size_t errlen, bool *switched);

#endif
