#!/usr/bin/python3
"""Checks that the replies of two golden trees (tests/golden/*/out/mail/)
differ only by the text/html alternative: for every reply of OLD, the reply
of NEW at the same path has the same headers (Content-Type aside) and its
text/plain part is byte for byte the same, transfer encoding included.
Usage: plain-unchanged.py OLD_GOLDEN_DIR NEW_GOLDEN_DIR; prints one line per
difference and "N replies compared, N differ"; exits 1 if any differ."""
import email
import email.policy
import os
import sys

SKIP = {"content-type", "content-transfer-encoding", "mime-version"}


def plain(msg):
    """The text/plain part: its transfer encoding and raw (encoded) body."""
    if msg.is_multipart():
        parts = msg.get_payload()
        if msg.get_content_type() != "multipart/alternative" or not parts:
            return None
        p = parts[0]
    else:
        p = msg
    if p.get_content_type() != "text/plain":
        return None
    return (p.get("Content-Transfer-Encoding"), p.get_param("charset"), p.get_payload(decode=False))


def main():
    old, new = sys.argv[1], sys.argv[2]
    n = bad = 0
    for root, _dirs, files in os.walk(old):
        if "/out/mail/" not in root + "/":
            continue
        for f in files:
            po = os.path.join(root, f)
            pn = os.path.join(new, os.path.relpath(po, old))
            n += 1
            if not os.path.exists(pn):
                print("missing in new: %s" % os.path.relpath(po, old))
                bad += 1
                continue
            with open(po, "rb") as a, open(pn, "rb") as b:
                mo = email.message_from_binary_file(a, policy=email.policy.compat32)
                mn = email.message_from_binary_file(b, policy=email.policy.compat32)
            ho = [(k, v) for k, v in mo.items() if k.lower() not in SKIP]
            hn = [(k, v) for k, v in mn.items() if k.lower() not in SKIP]
            if ho != hn:
                print("headers differ: %s" % os.path.relpath(po, old))
                bad += 1
            elif plain(mo) is None or plain(mo) != plain(mn):
                print("text/plain differs: %s" % os.path.relpath(po, old))
                bad += 1
    for root, _dirs, files in os.walk(new):
        if "/out/mail/" not in root + "/":
            continue
        for f in files:
            if not os.path.exists(os.path.join(old, os.path.relpath(os.path.join(root, f), new))):
                print("new reply: %s" % os.path.relpath(os.path.join(root, f), new))
                bad += 1
    print("%d replies compared, %d differ" % (n, bad))
    sys.exit(1 if bad or n == 0 else 0)


main()
