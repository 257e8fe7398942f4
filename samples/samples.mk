# samples/ - one folder per sample; each folder's sample.mk says what to build.
include $(sort $(wildcard samples/*/sample.mk))

# What the user sides share that is theirs, not the library's: samples/gallery.h.
$(BUILD)/obj/samples/%.o: CPPFLAGS += -Isamples
