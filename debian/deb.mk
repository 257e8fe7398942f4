# debian/deb.mk - make deb: the Debian packages libbpfsdk0, libbpfsdk-dev and
# bpfsdk, built with debhelper (debian/rules) from a copy of the tree's
# tracked (and new, not ignored) files in $(BUILD)/deb/src/, into $(BUILD)/deb/, then checked with
# lintian. SOURCE_DATE_EPOCH is the last commit's time, so two builds of one
# commit give the same bytes wherever the clone is.

DEB_OUT := $(BUILD)/deb

deb:
	$(msg) DEB $(DEB_OUT)
	$(Q)for t in dpkg-buildpackage dh lintian git; do \
		command -v $$t >/dev/null || { echo "error: '$$t' is missing: run 'tools/setup --test' (or make setup-test)" >&2; exit 1; }; done
	$(Q)rm -rf $(DEB_OUT) && mkdir -p $(DEB_OUT)/src
	$(Q)git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - | tar -xf - -C $(DEB_OUT)/src
	$(Q)cd $(DEB_OUT)/src && SOURCE_DATE_EPOCH=$$(git -C $(CURDIR) log -1 --format=%ct) \
		DEB_BUILD_OPTIONS="parallel=2 $(DEB_BUILD_OPTIONS)" \
		dpkg-buildpackage -b -us -uc >../build.log 2>&1 || \
		{ tail -30 ../build.log >&2; echo "error: dpkg-buildpackage failed (log: $(DEB_OUT)/build.log)" >&2; exit 1; }
	$(Q)lintian --allow-root --fail-on error,warning $(DEB_OUT)/*.changes
	$(Q)ls $(DEB_OUT)/*.deb

.PHONY: deb
