#!/usr/bin/env bash
# Installs what the container test (test/e2e/container.test.ts) needs when it is missing: Debian's
# podman, runc (crun refuses the hybrid cgroups of some hosts), and busybox-static (the shell and
# tools of the test's local stand-in for the Bun base image). Writes a containers.conf drop-in that
# keeps podman from raising the open-file and process limits above the host's hard limits, which
# fails every container start with "setrlimit ... Operation not permitted" where they are low.
# Runs before `npm test`; does nothing when everything is already there. Without root or apt-get it
# only says what is missing: the container test then skips, naming what to install.
set -euo pipefail

PACKAGES=(podman runc busybox-static)
CONF_DIR=/etc/containers/containers.conf.d
CONF="$CONF_DIR/50-brewrecords-ulimits.conf"

missing=()
command -v podman >/dev/null 2>&1 || missing+=(podman)
[ -x /usr/sbin/runc ] || missing+=(runc)
[ -x /bin/busybox ] || missing+=(busybox-static)

if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" -ne 0 ]; then
    echo "ensure-podman: ${missing[*]} missing; the container test will be skipped." >&2
    echo "ensure-podman: to run it, as root:  apt-get update && apt-get install -y ${PACKAGES[*]}" >&2
    exit 0
  fi
  echo "ensure-podman: installing Debian's ${missing[*]} for the container test" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null
fi

if [ ! -f "$CONF" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "ensure-podman: $CONF is missing; as root write it with:  [containers] default_ulimits = []" >&2
    exit 0
  fi
  mkdir -p "$CONF_DIR"
  printf '%s\n' '# Keep the host'"'"'s limits: raising them above its hard limits fails every container start.' \
    '[containers]' 'default_ulimits = []' >"$CONF"
fi

podman --version >&2
