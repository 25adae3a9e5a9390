#!/usr/bin/env bash
# first_installable reads `apt-cache policy <package>...` on standard input and prints the first of
# those packages that has a candidate version (an installable one), or nothing. The browser's
# package is named differently across the distributions bootstrap.sh runs on: Debian has
# chromium, Ubuntu 22.04 and 24.04 have no candidate for it and offer chromium-browser.
first_installable() {
  awk '
    /^[^ \t].*:$/ { name = substr($0, 1, length($0) - 1); next }
    /^[ \t]+Candidate:/ && $2 != "(none)" && name != "" { print name; exit }
  '
}
