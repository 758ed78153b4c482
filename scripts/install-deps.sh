#!/usr/bin/env bash
# Installs what candor needs on Debian 12 (run as root). Skips apt entirely when everything is present.
set -euo pipefail
packages=(build-essential cmake libboost-dev libcli11-dev nlohmann-json3-dev libgtest-dev libgmock-dev
          libbenchmark-dev libeigen3-dev liblbfgspp-dev python3-scipy
          python3-dev python3-venv python3-pip python3-setuptools python3-pybind11 pybind11-dev python3-numpy
          python3-pandas python3-sklearn python3-pytest python3-pytest-xdist python3-distributed
          clang libclang-rt-14-dev clang-format weka python3-matplotlib libsqlite3-dev libssl-dev postgresql
          chromium chromium-driver python3-selenium)
# Weka (the experiments' peer, which the tests run through Java's argument vector) and matplotlib (plots,
# which the tests draw) are part of the suite; so are PostgreSQL and SQLite, which run the SQL exports, and
# headless Chromium with its driver and Selenium, which open the report pages.
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} )); then
  echo "installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
