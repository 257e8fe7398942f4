# docs/ - the documentation. Only the first page's picture is built: it is
# drawn from docs/picture.dot by graphviz and checked in, so that the README
# shows it on any web view; tests/bats/docs.bats fails when the two differ.

picture: | $(BUILD)/.deps-ok
	$(msg) DOT docs/picture.svg
	$(Q)dot -Tsvg docs/picture.dot -o docs/picture.svg.tmp && mv docs/picture.svg.tmp docs/picture.svg

.PHONY: picture
