# SPDX-License-Identifier: GPL-2.0
#
# make test_progs: a minimal test_progs runner holding tc_redirect_ifb, from
# $(KDIR)'s own BPF selftest sources; make check-test_progs: its verdicts
# against the kselftest binary's (docs/test_progs.md). Included by the
# top-level Makefile, which defines KDIR, BUILD and suite.

TP_OUT := $(BUILD)/test_progs
TP_BIN := $(TP_OUT)/test_progs
TP_SRC := $(KDIR)/tools/testing/selftests/bpf
TP_TEST := tc_redirect_ifb
TP_SKEL_DIR := $(BUILD)/net/tc_skip_egress
# test_progs.c and the helpers the tree links into its runner, read from
# its bpf/Makefile (the list grows from 6.1 to 7.3): the .c files of
# TRUNNER_EXTRA_SOURCES and TRUNNER_LIB_SOURCES (those in tools/lib).
TP_HELPERS := $(shell awk '/^TRUNNER_EXTRA_SOURCES := test_progs\.c/ { on = 1 } \
	/^TRUNNER_LIB_SOURCES :=/ { on = 1 } \
	on { for (i = 1; i <= NF; i++) if ($$i ~ /\.c$$/) print substr($$i, 1, length($$i) - 2); \
	     if ($$NF != "\\") on = 0 }' $(TP_SRC)/Makefile 2>/dev/null)
TP_TSE_DIR := $(TP_SRC)/../net/tc_skip_egress
TP_OBJS := $(TP_HELPERS:%=$(TP_OUT)/%.o) $(TP_OUT)/$(TP_TEST).test.o \
	   $(patsubst $(TP_TSE_DIR)/%.c,$(TP_OUT)/%.o,$(wildcard $(TP_TSE_DIR)/tse_*.c))
TP_LIBBPF := $(BUILD)/libbpf
TP_CFLAGS := -g -O2 -Wall -D_GNU_SOURCE -I$(TP_OUT) -I$(TP_SRC) \
	     -I$(TP_LIBBPF)/include -I$(KDIR)/tools/lib \
	     -I$(KDIR)/tools/include -I$(KDIR)/tools/include/uapi
TP_LDLIBS := $(TP_LIBBPF)/libbpf.a -lelf -lz -lrt -lpthread
TP_LIB_DEPS := $(wildcard $(TP_TSE_DIR)/*.h) \
	       $(TP_SRC)/progs/test_tc_redirect_ifb.h \
	       $(TP_SKEL_DIR)/test_tc_redirect_ifb.skel.h

.PHONY: test_progs check-test_progs

# The overlay must be in place, and the skeleton built, before make looks
# at the files in $(KDIR): build the runner in a second make.
test_progs: suite
	+@$(MAKE) --no-print-directory $(TP_BIN)

check-test_progs: test_progs
	@mk/test_progs-check.sh

# From 7.x on, test_progs.c registers a signing key at start, whose
# certificate bpf/Makefile makes (verify_sig_setup.sh, openssl) and
# embeds as verification_cert.h; the kernel must take it (add_key
# "asymmetric": vm/kernel.config). Older trees do not include the header;
# 6.1 and 6.12 have the script, for fsverity only (no genkey action).
TP_SIG_SETUP := $(TP_SRC)/verify_sig_setup.sh
TP_SIG_HDR := $(if $(shell grep -l verification_cert.h $(TP_SRC)/test_progs.c \
			     2>/dev/null),$(TP_OUT)/verification_cert.h)

$(TP_OUT)/verification_cert.h: $(TP_SIG_SETUP)
	@mkdir -p $(@D)/sig
	@$(TP_SIG_SETUP) genkey $(@D)/sig >/dev/null
	@(echo "unsigned char test_progs_verification_cert[] = {"; \
	  od -v -t 'xC' -w12 $(@D)/sig/signing_key.der | \
		sed 's/ \(\S\+\)/ 0x\1,/g;s/^\S\+/ /;$$d'; \
	  echo "};"; \
	  echo "unsigned int test_progs_verification_cert_len = $$(wc -c < $(@D)/sig/signing_key.der);") > $@

$(TP_OUT)/prog_tests/tests.h: mk/test_progs.mk
	@mkdir -p $(@D)
	@echo 'DEFINE_TEST($(TP_TEST))' > $@

$(TP_OUT)/%.o: $(TP_SRC)/%.c $(TP_OUT)/prog_tests/tests.h $(TP_SIG_HDR)
	$(CC) $(TP_CFLAGS) -c $< -o $@

$(TP_OUT)/%.o: $(KDIR)/tools/lib/%.c
	$(CC) $(TP_CFLAGS) -c $< -o $@

$(TP_OUT)/$(TP_TEST).test.o: $(TP_SRC)/prog_tests/$(TP_TEST).c \
			     $(TP_OUT)/prog_tests/tests.h $(TP_LIB_DEPS)
	$(CC) $(TP_CFLAGS) -c $< -o $@

$(TP_OUT)/tse_%.o: $(TP_TSE_DIR)/tse_%.c $(TP_LIB_DEPS)
	@mkdir -p $(@D)
	$(CC) -I$(TP_SKEL_DIR) $(TP_CFLAGS) -c $< -o $@

$(TP_BIN): $(TP_OBJS) $(TP_LIBBPF)/libbpf.a
	$(CC) $(TP_CFLAGS) -o $@ $(TP_OBJS) $(TP_LDLIBS)
