# tests/soak/ - make soak: bpfsdk run streaming at full rate for 10 minutes
# (SOAK_SECONDS) with a map view every second; flat memory, no fd growth,
# received + lost == produced (tests/soak/soak). Not part of make test.

SOAK_SECONDS ?= 600

soak: all
	$(Q)BUILD=$(BUILD) tests/soak/soak $(SOAK_SECONDS)

.PHONY: soak
