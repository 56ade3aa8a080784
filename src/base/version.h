/*
 * version: oustpbm's release number, as `oustpbm engine` answers the GTP
 * version command and as the program reports itself.
 */
#ifndef OUSTPBM_VERSION_H
#define OUSTPBM_VERSION_H

#define OUSTPBM_VERSION "0.1.0"

#endif
