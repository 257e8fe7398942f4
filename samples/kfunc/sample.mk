# samples/kfunc: do_unlinkat() through kprobes or fentry, chosen at run time.
$(eval $(call bpf_object,kfunc,samples/kfunc/kfunc.bpf.c,samples/kfunc/kfunc.h))
$(eval $(call user_program,kfunc,samples/kfunc/kfunc.c))

# The user side opens the object through its generated skeleton, which
# embeds it: build/skel/kfunc.skel.h.
$(eval $(call skeleton,kfunc))
$(BUILD)/obj/samples/kfunc/kfunc.o: $(BUILD)/skel/kfunc.skel.h
$(BUILD)/obj/samples/kfunc/kfunc.o: CPPFLAGS += -I$(BUILD)/skel
