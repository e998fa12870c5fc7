#!/usr/bin/env bash
# Assembles the Debian package from a release binary built with the Swift runtime linked in
# (`swift build -c release --static-swift-stdlib`, which `make deb` runs first):
#   scripts/make-deb.sh BINARY OUTPUT_FOLDER
# No debhelper: the tree is laid out in OUTPUT_FOLDER/root, its dependencies are those dpkg-shlibdeps
# finds for the binary, and dpkg-deb builds it. Prints the path of the .deb.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=$1
out=$2
packaging=packaging/debian
version=$("$binary" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
changelog_version=$(sed -n '1s/^stackweb (\([^)]*\)).*/\1/p' $packaging/changelog)
if [ "$version" != "$changelog_version" ]; then
    echo "make-deb: the binary is $version but $packaging/changelog starts at $changelog_version" >&2
    exit 1
fi
if ldd "$binary" | grep -q 'libswift\|libFoundation\|libdispatch'; then
    echo "make-deb: $binary loads the Swift runtime; build it with --static-swift-stdlib" >&2
    exit 1
fi

root=$out/root
rm -rf "$out"
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/stackweb" "$root/usr/share/man/man1" \
    "$root/usr/share/doc/stackweb" "$root/lib/systemd/system" "$root/etc/default"

install -m 755 "$binary" "$root/usr/bin/stackweb"
strip --strip-unneeded "$root/usr/bin/stackweb"
cp -R Resources/web Resources/demo-photos "$root/usr/share/stackweb/"
install -m 644 $packaging/stackweb.service "$root/lib/systemd/system/stackweb.service"
# It is meant to hold the control token: root only.
install -m 600 $packaging/default "$root/etc/default/stackweb"
gzip -9n <docs/stackweb.1 >"$root/usr/share/man/man1/stackweb.1.gz"
install -m 644 $packaging/copyright "$root/usr/share/doc/stackweb/copyright"
# Each override says why it is one (lintian reads this path).
install -D -m 644 $packaging/lintian-overrides "$root/usr/share/lintian/overrides/stackweb"
gzip -9n <$packaging/changelog >"$root/usr/share/doc/stackweb/changelog.gz"
find "$root/usr" -type d -exec chmod 755 {} +
find "$root/usr/share" -type f -exec chmod 644 {} +

# dpkg-shlibdeps reads the package's name from a debian/control; give it a minimal one.
shlibs_dir=$out/shlibdeps
mkdir -p "$shlibs_dir/debian"
printf 'Source: stackweb\n\nPackage: stackweb\nArchitecture: any\n' >"$shlibs_dir/debian/control"
depends=$(cd "$shlibs_dir" && dpkg-shlibdeps -O --warnings=0 "-e$(realpath "../root/usr/bin/stackweb")" \
    | sed -n 's/^shlibs:Depends=//p')

install -m 755 $packaging/postinst $packaging/prerm $packaging/postrm "$root/DEBIAN/"
echo /etc/default/stackweb >"$root/DEBIAN/conffiles"
cat >"$root/DEBIAN/control" <<CONTROL
Package: stackweb
Version: $version
Architecture: $arch
Maintainer: StackWeb maintainers <maintainers@stackweb.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: adduser, $depends
Section: web
Priority: optional
Description: shared stack of photos in every browser
 A Swift server that owns a stack of photos and shows it in any browser:
 one Canvas page, every change pushed over Server-Sent Events, every
 browser on a room moving together. For a shared slideshow on a LAN, or a
 photo frame showing a folder for months. The service (stackweb.service)
 reads its control token from /etc/default/stackweb.
CONTROL
(cd "$root" && find usr lib -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"

deb=$out/stackweb_${version}_${arch}.deb
dpkg-deb --build --root-owner-group -Zxz "$root" "$deb" >/dev/null
echo "$deb"
