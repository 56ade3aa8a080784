#!/usr/bin/python3
"""idmac: the Message-ID the server sends to RCPT for the id STEM under the
golden cases' token.secret (tests/sh/golden.sh), as src/mail/idmac.c makes
it, for the delivery reports of the golden cases (tests/golden/README.md).
Usage: idmac.py RCPT STEM [SECRET_HEX]   ->  the id, "left.<mac>@domain"."""
import hashlib
import hmac
import sys

GOLDEN = "0123456789abcdeffedcba98765432100123456789abcdeffedcba9876543210"


def idmac(rcpt, stem, secret_hex=GOLDEN):
    key = hmac.new(bytes.fromhex(secret_hex), b"oustpbm message-id key v1\0", hashlib.sha256).digest()
    left, domain = stem.rsplit("@", 1)
    msg = rcpt.lower().encode() + b"\0" + left.encode() + b"@" + domain.lower().encode()
    mac = hmac.new(key, msg, hashlib.sha256).hexdigest()[:16]
    return "%s.%s@%s" % (left, mac, domain)


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    print(idmac(*sys.argv[1:]))
