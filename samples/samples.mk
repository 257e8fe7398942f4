# samples/ - one folder per sample; each folder's sample.mk says what to build.
include $(sort $(wildcard samples/*/sample.mk))
