#!/bin/bash
# Regenerate series patches 0002 and 0003 from the kernel work tree: 0002 is
# the SCI core, 0003 the test hooks (its Kconfig and Makefile lines are taken
# out of the work tree while 0002 is written).
set -euo pipefail
cd "$(dirname "$0")/.."
T=build/linux-source-6.1
cp $T/arch/x86/Kconfig /tmp/.sci-Kconfig
cp $T/arch/x86/mm/Makefile /tmp/.sci-Makefile
trap 'cp /tmp/.sci-Kconfig $T/arch/x86/Kconfig; cp /tmp/.sci-Makefile $T/arch/x86/mm/Makefile' EXIT
python3 - "$T" <<'PY'
import sys
T = sys.argv[1] + '/'
s = open(T + 'arch/x86/Kconfig').read()
a = s.index('config SYSCALL_ISOLATION_TEST')
s = s[:a] + s[s.index('config RETPOLINE'):]
open(T + 'arch/x86/Kconfig', 'w').write(s)
s = open(T + 'arch/x86/mm/Makefile').read()
s = s.replace('obj-$(CONFIG_SYSCALL_ISOLATION_TEST)\t\t+= sci_test.o\n', '')
open(T + 'arch/x86/mm/Makefile', 'w').write(s)
PY
touch -r /tmp/.sci-Kconfig $T/arch/x86/Kconfig
touch -r /tmp/.sci-Makefile $T/arch/x86/mm/Makefile
qemu/mkpatch.py 0002-x86-sci-run-isolated-system-calls-on-verified-page-tables.patch series/msg/0002 \
	arch/x86/Kconfig arch/x86/include/asm/cpufeatures.h arch/x86/include/asm/disabled-features.h \
	arch/x86/include/asm/sci.h arch/x86/mm/sci.c arch/x86/mm/Makefile arch/x86/entry/calling.h \
	arch/x86/entry/entry_64.S arch/x86/kernel/asm-offsets.c arch/x86/entry/common.c \
	arch/x86/mm/fault.c arch/x86/mm/pti.c arch/x86/mm/init.c arch/x86/kernel/process.c \
	arch/x86/include/asm/processor.h arch/x86/include/asm/mmu.h \
	arch/x86/include/asm/mmu_context.h arch/x86/include/asm/switch_to.h \
	tools/objtool/check.c fs/proc/base.c Documentation/x86/sci.rst Documentation/x86/index.rst
cp /tmp/.sci-Kconfig $T/arch/x86/Kconfig
cp /tmp/.sci-Makefile $T/arch/x86/mm/Makefile
touch -r /tmp/.sci-Kconfig $T/arch/x86/Kconfig
touch -r /tmp/.sci-Makefile $T/arch/x86/mm/Makefile
trap - EXIT
qemu/mkpatch.py 0003-x86-sci-add-test-hooks.patch series/msg/0003 \
	arch/x86/Kconfig arch/x86/mm/Makefile arch/x86/mm/sci_test.c
