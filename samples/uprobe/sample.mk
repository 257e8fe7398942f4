# samples/uprobe: probes in user programs - bash's readline() and any
# function's arguments and return value; uprobe_target is the function to
# probe that the sample and its test use.
$(eval $(call bpf_object,uprobe,samples/uprobe/uprobe.bpf.c,samples/uprobe/uprobe.h))
$(eval $(call user_program,uprobe,samples/uprobe/uprobe.c))
$(eval $(call user_program,uprobe_target,samples/uprobe/uprobe_target.c))

# The user side opens the object through its generated skeleton, which
# embeds it: build/skel/uprobe.skel.h.
$(eval $(call skeleton,uprobe))
$(BUILD)/obj/samples/uprobe/uprobe.o: $(BUILD)/skel/uprobe.skel.h
$(BUILD)/obj/samples/uprobe/uprobe.o: CPPFLAGS += -I$(BUILD)/skel
