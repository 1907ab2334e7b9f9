#!/usr/bin/env bash
# Installs the Debian packages the test suite needs: the PS5-target compiler and linker
# (clang-19, lld-19), LLVM's AMDGPU tools, Vulkan on the CPU (lavapipe), shader tools.
# Skips apt entirely when everything is already installed.
set -euo pipefail
packages=(clang-19 lld-19 llvm mesa-vulkan-drivers vulkan-tools glslang-tools spirv-tools)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
