# SCI: system call isolation under seccomp control.
#
#   make demo     boot the guest and show isolation at work
#   make check    host unit tests, then every selftest in the guest
#
# See README.md for the targets and variables.

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

BUILD ?= build
# make fuzz-qemu fuzzes the distribution configuration unless told otherwise.
ifeq ($(MAKECMDGOALS),fuzz-qemu)
KCONFIG ?= distro
endif
# make bench-qemu measures the distribution configuration (its HTTP server
# benchmark needs networking, which the default configuration lacks).
ifeq ($(MAKECMDGOALS),bench-qemu)
KCONFIG ?= distro
endif
# make selftest-bochs runs the debug configuration (DEBUG_VM) by default.
ifeq ($(MAKECMDGOALS),selftest-bochs)
KCONFIG ?= debug
endif
KCONFIG ?= default
KTAR ?= /usr/src/linux-source-6.1.tar.xz
JOBS ?= $(shell nproc)
# Configurations that `make check` runs, one guest boot each.
CHECK_CONFIGS ?= distro debug
export QEMU_ACCEL QEMU_CPU QEMU_SMP QEMU_MEM GUEST_TIMEOUT SCI_TESTS

B := $(abspath $(BUILD))
KSRC = $(B)/linux-source-6.1
KOBJ = $(B)/kbuild-$(KCONFIG)
BZIMAGE = $(KOBJ)/arch/x86/boot/bzImage
HDR = $(KOBJ)/hdr
GUEST_BIN = $(B)/guest-bin
INITRD = $(B)/initramfs.cpio.gz
RUN = $(B)/run-$(KCONFIG)
FRAGMENTS = qemu/config/base.config $(if $(filter-out default,$(KCONFIG)),qemu/config/$(KCONFIG).config)
KCC := $(if $(shell command -v ccache),ccache gcc,gcc)
# Let ccache hit across clones (CI builds in a fresh one): paths relative to
# the checkout; the kernel is built without debug info.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
STAGE = qemu/stage.sh

ifeq ($(filter default distro debug kasan,$(KCONFIG)),)
$(error KCONFIG must be default, distro, debug or kasan, not '$(KCONFIG)')
endif

.PHONY: all deps tree series series-check bisect-check fresh-check premap-scan kernel guest-bin initramfs selftest-qemu check check-host demo stress-qemu fuzz-qemu shell clean distclean

all: kernel initramfs

deps:
	@qemu/deps.sh

# The kernel work tree is a git repository (qemu/ktree.sh): the pristine
# tarball as the first commit (tag "pristine"), one commit per patch of
# series/.  `make tree` applies series/ when it changed (never discarding
# commits or edits that are not in series/: FORCE=1 does); `make series`
# writes the tree's commits back with git format-patch.
tree: deps
	@$(STAGE) tree qemu/ktree.sh tree $(KTAR) $(B) series

series:
	@qemu/ktree.sh series $(KTAR) $(B) series

# The round trip: series/ applied to pristine with git am, written back
# with git format-patch, is byte-identical to series/ (the tree is not
# touched).  "1 passed" or "0 passed, 1 failed" in $(B)/host/series.txt.
series-check: deps
	@mkdir -p $(B)/host
	@if $(STAGE) series-check qemu/ktree.sh roundtrip $(KTAR) $(B) series; then \
		echo "ok 1 series round trip (git am, git format-patch)"; echo "1 passed, 0 failed" >$(B)/host/series.txt; \
	else echo "not ok 1 series round trip"; echo "0 passed, 1 failed" >$(B)/host/series.txt; exit 1; fi

# Build the kernel after each patch of the tree's series, and boot some of
# them with a smoke test (qemu/bisect.sh; BISECT_BOOT, BISECT_TESTS).
BISECT_BOOT ?= 1 2 3 6 last
BISECT_TESTS ?= guest_env,isolate_action
bisect-check: tree initramfs
	@BISECT_BOOT="$(BISECT_BOOT)" BISECT_TESTS="$(BISECT_TESTS)" JOBS=$(JOBS) KCC="$(KCC)" \
		$(STAGE) bisect-check qemu/bisect.sh $(B) $(INITRD) $(EXPECT)

# A machine with only git and make: a minimal Debian chroot (debootstrap
# from the mirror apt uses), this repository cloned into it, then
# `make deps`, `make kernel initramfs` and the sci=off smoke boot inside.
fresh-check:
	@$(STAGE) fresh-check qemu/fresh-check.sh $(B)

# The build checks of class 1 (Documentation/x86/sci.rst): every CR3 write
# in what the SCI tables premap executable is on qemu/premap-cr3.allow, and
# every other one in kernel text is bracketed by sci_cr3_write_begin()/_end(),
# never reached, in init text or on qemu/kernel-cr3.allow.
kernel: tree
	@$(STAGE) kernel-$(KCONFIG) $(MAKE) --no-print-directory kernel-image KCONFIG=$(KCONFIG)
	@qemu/premap-scan.py -q $(KOBJ)/vmlinux qemu/premap-cr3.allow
	@qemu/cr3-scan.py -q $(KOBJ)/vmlinux $(KSRC)/arch/x86/mm/sci.c qemu/kernel-cr3.allow

.PHONY: kernel-image
kernel-image: $(BZIMAGE) $(HDR)/.stamp

$(KOBJ)/.config: $(FRAGMENTS) qemu/kconfig.sh $(B)/.tree-state
	qemu/kconfig.sh $(KSRC) $(KOBJ) $(FRAGMENTS)

# "modules" too: none is configured, but it writes Module.symvers and the
# module linker script that the selftests' module (sci_testmod) needs.
$(BZIMAGE): $(KOBJ)/.config $(B)/.tree-state
	$(MAKE) -s -C $(KSRC) O=$(KOBJ) CC="$(KCC)" -j$(JOBS) bzImage modules
	@touch $@

$(HDR)/.stamp: $(KOBJ)/.config $(B)/.tree-state
	$(MAKE) -s -C $(KSRC) O=$(KOBJ) headers_install INSTALL_HDR_PATH=$(HDR)
	@touch $@

# Guest programs are built against the configuration's headers (the uapi
# does not depend on it).  KCONFIG is passed on: selftest-bochs and
# fuzz-qemu choose theirs in this Makefile, which a sub-make does not see,
# and its test module must be built for that configuration's kernel.
guest-bin: kernel
	@$(STAGE) guest-bin sh -c '$(MAKE) -s --no-print-directory -C selftests KSRC=$(KSRC) HDR=$(HDR) OUT=$(GUEST_BIN) && \
		$(MAKE) -s --no-print-directory KCONFIG=$(KCONFIG) $(GUEST_BIN)/sci-poweroff $(GUEST_BIN)/sci-suite testmod examples'

# The selftests' module, built for this configuration's kernel (the
# initramfs is built again for each configuration make check boots).
TESTMOD = $(B)/testmod-$(KCONFIG)
.PHONY: testmod
testmod:
	@[ -f $(KOBJ)/Module.symvers ] || $(MAKE) -s -C $(KSRC) O=$(KOBJ) CC="$(KCC)" -j$(JOBS) modules
	@mkdir -p $(TESTMOD) $(GUEST_BIN)/modules
	@cp selftests/module/Kbuild selftests/module/sci_testmod.c selftests/module/sci_testmod.h $(TESTMOD)/
	$(MAKE) -s -C $(KSRC) O=$(KOBJ) CC="$(KCC)" M=$(TESTMOD) modules
	@cp $(TESTMOD)/sci_testmod.ko $(GUEST_BIN)/modules/sci_testmod.ko

# libsci, sci-run and the demo programs, static, for the guest.
.PHONY: examples
examples:
	@$(MAKE) -s --no-print-directory -C examples
	@mkdir -p $(GUEST_BIN)
	@cp examples/build/sci-run $(GUEST_BIN)/sci-run
	@$(MAKE) -s --no-print-directory $(GUEST_BIN)/sci-hook

$(GUEST_BIN)/sci-hook: examples/sci-hook.c libsci/include/sci.h libsci/build/libsci-nopic.a
	gcc -static -O2 -Wall -Wextra -Werror -Ilibsci/include -o $@ $< libsci/build/libsci-nopic.a -lseccomp

$(GUEST_BIN)/sci-poweroff: qemu/guest/sci-poweroff.c
	@mkdir -p $(@D)
	gcc -static -O2 -Wall -o $@ $<

$(GUEST_BIN)/sci-suite: qemu/guest/sci-suite.c
	@mkdir -p $(@D)
	gcc -static -O2 -Wall -Wextra -Werror -o $@ $<

initramfs: guest-bin
	@$(STAGE) initramfs qemu/mkinitramfs.sh $(INITRD) $(GUEST_BIN) selftests/tests.list

# Five boots: every selftest but sci_off with sci=on; the sci=off ones with
# sci=off; the same with sci=on and pti=off, which SCI refuses (with one
# message, checked by sci_off); the SCI suites with sci=on on a CPU with
# 5-level paging (LA57_TESTS); where the configuration has KEXEC_FILE, a
# panic in an isolated syscall with a crash kernel loaded (sci_kdump).
SCI_OFF_TESTS ?= guest_env,isolate_action,sci_off
# The 5-level-paging boot: every SCI suite with the distro configuration,
# the quicker ones with debug (lockdep, DEBUG_VM's table checks).
LA57_TESTS_ALL = guest_env,isolate_action,sci_isolation,sci_attack,sci_harden,sci_keep,sci_pcid,sci_redteam,sci_servers,sci_dyncode,sci_module,sci_run,sci_workload,sci_oci,sci_isolate_all,sci_limit
LA57_TESTS_DEBUG = guest_env,isolate_action,sci_isolation,sci_attack,sci_keep,sci_pcid,sci_redteam,sci_module,sci_limit
LA57_TESTS ?= $(if $(filter debug,$(KCONFIG)),$(LA57_TESTS_DEBUG),$(LA57_TESTS_ALL))
# Extra kernel parameters of the sci=on boot, per configuration: debug
# poisons freed pages (the user-half race test wants it); KASAN under TCG
# is slow, so its test timeouts are scaled.
SCI_ON_CMDLINE = sci=on no5lvl $(if $(filter debug,$(KCONFIG)),init_on_free=1) \
	$(if $(filter kasan,$(KCONFIG)),sci.tscale=4)
# The kdump boot (configurations with KEXEC_FILE): a panic inside an
# isolated syscall must start the crash kernel (selftests/guest/sci_kdump.sh).
KDUMP_TIMEOUT = 600
# Wall-clock limit of the sci=on boot (a hang detector), per configuration.
SCI_ON_TIMEOUT = $(if $(filter debug,$(KCONFIG)),3600,$(if $(filter kasan,$(KCONFIG)),10800,2400))
EXPECT_BOCHS = selftests/expected/all.txt selftests/expected/isolate-all.txt \
	$(wildcard selftests/expected/$(KCONFIG).txt) selftests/expected/bochs.txt
EXPECT = selftests/expected/all.txt selftests/expected/isolate-all.txt \
	$(wildcard selftests/expected/$(KCONFIG).txt) \
	$(if $(filter kvm,$(QEMU_ACCEL)),,selftests/expected/tcg.txt)

selftest-qemu: kernel initramfs
	@echo "== booting $(BZIMAGE) (KCONFIG=$(KCONFIG), accel $${QEMU_ACCEL:-tcg}, sci=on)"
	@rc=0; GUEST_CMDLINE="$${GUEST_CMDLINE:-$(strip $(SCI_ON_CMDLINE))}" \
	GUEST_TIMEOUT=$${GUEST_TIMEOUT:-$(SCI_ON_TIMEOUT)} \
	SCI_TESTS=$${SCI_TESTS:--sci_off,-sci_fuzz,-sci_textpoke_loop} $(STAGE) boot-$(KCONFIG) \
		qemu/run-guest.sh $(BZIMAGE) $(INITRD) $(RUN) selftest || rc=1; \
	qemu/tapsum.py $(RUN)/tap.log $(RUN)/kernel.log $(EXPECT) | tee $(RUN)/summary.txt || rc=1; \
	echo "== booting again with sci=off: $(SCI_OFF_TESTS)"; \
	GUEST_CMDLINE="sci=off no5lvl" SCI_TESTS=$(SCI_OFF_TESTS) $(STAGE) boot-$(KCONFIG)-sci-off \
		qemu/run-guest.sh $(BZIMAGE) $(INITRD) $(RUN)-sci-off selftest || rc=1; \
	qemu/tapsum.py $(RUN)-sci-off/tap.log $(RUN)-sci-off/kernel.log $(EXPECT) \
		| tee $(RUN)-sci-off/summary.txt || rc=1; \
	echo "== booting again with sci=on and pti=off (SCI refuses): $(SCI_OFF_TESTS)"; \
	GUEST_CMDLINE="sci=on pti=off no5lvl" SCI_TESTS=$(SCI_OFF_TESTS) $(STAGE) boot-$(KCONFIG)-nopti \
		qemu/run-guest.sh $(BZIMAGE) $(INITRD) $(RUN)-nopti selftest || rc=1; \
	qemu/tapsum.py $(RUN)-nopti/tap.log $(RUN)-nopti/kernel.log $(EXPECT) \
		| tee $(RUN)-nopti/summary.txt || rc=1; \
	echo "== booting again with sci=on and percpu_alloc=page (SCI refuses): $(SCI_OFF_TESTS)"; \
	GUEST_CMDLINE="sci=on percpu_alloc=page no5lvl" SCI_TESTS=$(SCI_OFF_TESTS) $(STAGE) boot-$(KCONFIG)-pcpu-page \
		qemu/run-guest.sh $(BZIMAGE) $(INITRD) $(RUN)-pcpu-page selftest || rc=1; \
	qemu/tapsum.py $(RUN)-pcpu-page/tap.log $(RUN)-pcpu-page/kernel.log $(EXPECT) \
		| tee $(RUN)-pcpu-page/summary.txt || rc=1; \
	if [ $(KCONFIG) = kasan ]; then \
		echo "== no 5-level-paging boot under KASAN: 6.1's KASAN reports a wild access"; \
		echo "   when an interrupt arrives while identify_cpu() has cleared LA57 in the"; \
		echo "   boot CPU's capabilities (an upstream race, SCI off); the distro and"; \
		echo "   debug configurations boot with 5-level paging"; \
		la57=; \
	else \
		echo "== booting again with sci=on and 5-level paging: $(LA57_TESTS)"; \
		QEMU_CPU=max,+la57 GUEST_CMDLINE="$(strip $(filter-out no5lvl,$(SCI_ON_CMDLINE)))" \
		GUEST_TIMEOUT=$${GUEST_TIMEOUT:-$(SCI_ON_TIMEOUT)} \
		SCI_TESTS=$(LA57_TESTS) $(STAGE) boot-$(KCONFIG)-la57 \
			qemu/run-guest.sh $(BZIMAGE) $(INITRD) $(RUN)-la57 selftest || rc=1; \
		qemu/tapsum.py $(RUN)-la57/tap.log $(RUN)-la57/kernel.log $(EXPECT) selftests/expected/la57.txt \
			| tee $(RUN)-la57/summary.txt || rc=1; \
		la57=$(RUN)-la57/summary.txt; \
	fi; \
	if grep -q '^CONFIG_KEXEC_FILE=y' $(KOBJ)/.config; then \
		echo "== booting again with sci=on and a crash kernel loaded: sci_kdump"; \
		qemu/kdump-initrd.sh $(INITRD) $(BZIMAGE) $(RUN)-kdump/initrd.cpio.gz && \
		GUEST_CMDLINE="$(strip $(SCI_ON_CMDLINE)) crashkernel=256M" GUEST_TIMEOUT=$(KDUMP_TIMEOUT) \
		$(STAGE) boot-$(KCONFIG)-kdump \
			qemu/run-guest.sh $(BZIMAGE) $(RUN)-kdump/initrd.cpio.gz $(RUN)-kdump kdump || rc=1; \
		qemu/tapsum.py $(RUN)-kdump/tap.log $(RUN)-kdump/kernel.log $(EXPECT) \
			| tee $(RUN)-kdump/summary.txt || rc=1; \
		kdump=$(RUN)-kdump/summary.txt; \
	else \
		echo "== no kdump boot: KCONFIG=$(KCONFIG) has no KEXEC_FILE (the distro configuration has)"; \
		kdump=; \
	fi; \
	qemu/sumlines.sh $(RUN)/summary.txt $(RUN)-sci-off/summary.txt $(RUN)-nopti/summary.txt \
		$(RUN)-pcpu-page/summary.txt $$la57 $$kdump \
		| tee $(RUN)/total.txt; \
	[ $$rc = 0 ] || grep -q ' [1-9][0-9]* failed' $(RUN)/total.txt || \
		{ echo "0 passed, 1 failed" >>$(RUN)/total.txt; echo "0 passed, 1 failed"; }; \
	exit $$rc

# Under Bochs, whose CPU models have PCID and INVPCID (QEMU's TCG has
# neither): two vCPUs, sci=on, the debug configuration by default (DEBUG_VM
# checks that every flush issued on the SCI tables reached the kernel PCID),
# BOCHS_TESTS only: Bochs runs about 20 times slower than TCG here.
BOCHS_TESTS ?= guest_env,sci_pcid,sci_isolation,sci_keep,sci_attack
.PHONY: selftest-bochs
selftest-bochs: kernel initramfs
	@echo "== booting $(BZIMAGE) under Bochs (KCONFIG=$(KCONFIG), $${BOCHS_CPU:-corei7_haswell_4770}, sci=on): $(BOCHS_TESTS)"
	@rc=0; GUEST_CMDLINE="$${GUEST_CMDLINE:-$(strip $(SCI_ON_CMDLINE))}" \
	SCI_TESTS=$(BOCHS_TESTS) $(STAGE) bochs-$(KCONFIG) \
		qemu/run-bochs.sh $(BZIMAGE) $(INITRD) $(RUN)-bochs selftest || rc=1; \
	qemu/tapsum.py $(RUN)-bochs/tap.log $(RUN)-bochs/kernel.log $(EXPECT_BOCHS) \
		| tee $(RUN)-bochs/summary.txt || rc=1; \
	qemu/digest.sh $(RUN)-bochs; \
	qemu/sumlines.sh $(RUN)-bochs/summary.txt; \
	exit $$rc

# The short sci=off boot of selftest-qemu alone (fresh-check's smoke test).
.PHONY: smoke-qemu
smoke-qemu: kernel initramfs
	@rc=0; GUEST_CMDLINE="sci=off no5lvl" SCI_TESTS=$(SCI_OFF_TESTS) $(STAGE) boot-$(KCONFIG)-sci-off \
		qemu/run-guest.sh $(BZIMAGE) $(INITRD) $(RUN)-sci-off selftest || rc=1; \
	qemu/tapsum.py $(RUN)-sci-off/tap.log $(RUN)-sci-off/kernel.log $(EXPECT) || rc=1; \
	exit $$rc

# Host unit tests (libsci: parser, BPF rewrite, verdicts; never loads an
# isolating filter on this kernel).
check-host: deps
	@mkdir -p $(B)/host
	@$(STAGE) check-host sh -c '$(MAKE) -s --no-print-directory -C libsci check' 2>&1 \
		| tee $(B)/host/check.log; \
	grep -E '^[0-9]+ passed, [0-9]+ failed' $(B)/host/check.log | tail -n1 >$(B)/host/total.txt; \
	grep -qE '^[0-9]+ passed, 0 failed' $(B)/host/total.txt
	@qemu/tapsum.py --self-test >$(B)/host/tools.log 2>&1; rc=$$?; \
	grep -v '^ok ' $(B)/host/tools.log; tail -n1 $(B)/host/tools.log >$(B)/host/tools.txt; exit $$rc

# The README's test command: host tests, then one guest run per configuration.
check:
	@start=$$(date +%s); rc=0; \
	$(MAKE) --no-print-directory series-check || rc=1; \
	$(MAKE) --no-print-directory check-host || rc=1; \
	for c in $(CHECK_CONFIGS); do \
		$(MAKE) --no-print-directory selftest-qemu KCONFIG=$$c || rc=1; \
	done; \
	echo "== make check: $$(( $$(date +%s) - start )) s in all"; \
	qemu/digest.sh $(foreach c,$(CHECK_CONFIGS),$(B)/run-$(c) $(B)/run-$(c)-sci-off $(B)/run-$(c)-nopti $(B)/run-$(c)-pcpu-page $(B)/run-$(c)-la57 $(B)/run-$(c)-kdump); \
	qemu/sumlines.sh $(B)/host/series.txt $(B)/host/total.txt $(B)/host/tools.txt $(foreach c,$(CHECK_CONFIGS),$(B)/run-$(c)/total.txt); \
	exit $$rc

demo: kernel initramfs
	@GUEST_TIMEOUT=$${GUEST_TIMEOUT:-300} qemu/run-guest.sh $(BZIMAGE) $(INITRD) $(B)/demo demo

# What isolation costs (issue 7): time per operation with no filter, ALLOW,
# ISOLATE, USER_NOTIF + supervisor and TRACE + ptrace, SCI faults per
# operation, SCI page-table memory per task.  The guest's progress streams
# (line-buffered through the pipe); the table and CSV land in
# $(B)/bench/bench.txt and bench.csv.
.PHONY: bench-qemu
# What the SCI tables map executable at rest in this configuration's
# vmlinux: sizes, RET/IRET/SYSRET counts and every CR3 write (issue #14).
premap-scan: kernel
	@qemu/premap-scan.py $(KOBJ)/vmlinux qemu/premap-cr3.allow
	@qemu/cr3-scan.py $(KOBJ)/vmlinux $(KSRC)/arch/x86/mm/sci.c qemu/kernel-cr3.allow

bench-qemu: kernel initramfs
	@rc=0; GUEST_TIMEOUT=$${GUEST_TIMEOUT:-1500} $(STAGE) bench \
		stdbuf -oL qemu/run-guest.sh $(BZIMAGE) $(INITRD) $(B)/bench bench \
		| sed -u '/^==== SCI-BENCH .* BEGIN/,/^==== SCI-BENCH .* END/d' || rc=1; \
	qemu/benchextract.py $(B)/bench/tap.log $(B)/bench/kernel.log $(B)/bench || rc=1; \
	exit $$rc

# Isolate-everything workloads on both vCPUs for STRESS_SECONDS, then TAP
# (selftests/guest/sci_stress.sh) checked like selftest-qemu's.
STRESS_SECONDS ?= 180
stress-qemu: kernel initramfs
	@rc=0; GUEST_TIMEOUT=$${GUEST_TIMEOUT:-$$(( $(STRESS_SECONDS) * 3 + 900 ))} $(STAGE) stress-$(KCONFIG) \
		qemu/run-guest.sh $(BZIMAGE) $(INITRD) $(B)/stress-$(KCONFIG) stress \
		"$${GUEST_CMDLINE-sci=on no5lvl} STRESS_SECONDS=$(STRESS_SECONDS)" || rc=1; \
	qemu/tapsum.py $(B)/stress-$(KCONFIG)/tap.log $(B)/stress-$(KCONFIG)/kernel.log $(EXPECT) \
		| tee $(B)/stress-$(KCONFIG)/summary.txt || rc=1; \
	exit $$rc

# Trinity for FUZZ_SYSCALLS syscalls with every syscall isolated
# (selftests/guest/sci_fuzz.sh), TAP checked like selftest-qemu's.
FUZZ_SYSCALLS ?= 20000
FUZZ_SEED ?= 1
fuzz-qemu: kernel initramfs
	@rc=0; GUEST_TIMEOUT=$${GUEST_TIMEOUT:-4200} SCI_TESTS=sci_fuzz $(STAGE) fuzz-$(KCONFIG) \
		qemu/run-guest.sh $(BZIMAGE) $(INITRD) $(B)/fuzz-$(KCONFIG) selftest \
		"$${GUEST_CMDLINE-sci=on no5lvl} FUZZ_SYSCALLS=$(FUZZ_SYSCALLS) FUZZ_SEED=$(FUZZ_SEED)" || rc=1; \
	qemu/tapsum.py $(B)/fuzz-$(KCONFIG)/tap.log $(B)/fuzz-$(KCONFIG)/kernel.log $(EXPECT) \
		| tee $(B)/fuzz-$(KCONFIG)/summary.txt || rc=1; \
	exit $$rc

shell: kernel initramfs
	qemu-system-x86_64 -accel $${QEMU_ACCEL:-tcg} -cpu max -smp 2 -m 1024 -nographic -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 -kernel $(BZIMAGE) -initrd $(INITRD) \
		-append "console=ttyS0 pti=on panic=-1 sci.mode=shell"

# Install libsci (static and shared library, sci.h, libsci.pc, man pages)
# and sci-run: PREFIX (/usr/local), DESTDIR, LIBDIR (PREFIX/lib/MULTIARCH
# where the compiler knows its multiarch tuple, e.g. x86_64-linux-gnu).
PREFIX ?= /usr/local
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
LIBDIR ?= $(PREFIX)/lib$(if $(MULTIARCH),/$(MULTIARCH))
.PHONY: install
install:
	$(MAKE) --no-print-directory -C libsci install PREFIX=$(PREFIX) LIBDIR=$(LIBDIR) DESTDIR=$(DESTDIR)
	$(MAKE) --no-print-directory -C examples install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

clean:
	rm -rf $(B)/kbuild-* $(B)/guest-bin $(B)/run-* $(B)/demo $(B)/stress-* $(B)/fuzz-* $(B)/testmod-* $(B)/bench $(B)/bisect $(INITRD)

distclean:
	rm -rf $(B)
