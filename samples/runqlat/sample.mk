# samples/runqlat: run-queue latency, a log2 histogram kept in a map.
$(eval $(call bpf_object,runqlat,samples/runqlat/runqlat.bpf.c,samples/runqlat/runqlat.h))
# --metrics serves the histogram over HTTP: libbpfsdk-http.a, libmicrohttpd
$(eval $(call user_program,runqlat,samples/runqlat/runqlat.c,$(LDLIBS_HTTP)))
$(BUILD)/bin/runqlat: $(LOADER_HTTP_LIB)

# The user side opens the object through its generated skeleton, which
# embeds it: build/skel/runqlat.skel.h.
$(eval $(call skeleton,runqlat))
$(BUILD)/obj/samples/runqlat/runqlat.o: $(BUILD)/skel/runqlat.skel.h
$(BUILD)/obj/samples/runqlat/runqlat.o: CPPFLAGS += -I$(BUILD)/skel -Iloader/http
