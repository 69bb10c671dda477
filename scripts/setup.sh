#!/usr/bin/env bash
# Installs what pagesim needs from Debian 12's archive (skips what is already there).
set -euo pipefail
packages=(
  build-essential cmake git
  libboost-dev libeigen3-dev pybind11-dev python3-pybind11 libbenchmark-dev doctest-dev
  python3-dev python3-numpy python3-pandas python3-matplotlib python3-pytest
  python3-dask python3-distributed python3-tqdm python3-setuptools python3-venv python3-pip
  jupyter-nbconvert python3-ipykernel python3-nbclient
  zlib1g-dev libzstd-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
