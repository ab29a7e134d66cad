// SPDX-License-Identifier: GPL-2.0
/*
 * Print a BPF program's run_cnt: runcnt PROG_ID
 *
 * bpftool shows run_cnt only when run_time_ns is not 0. Under qemu TCG on a
 * loaded host the guest often cannot calibrate its TSC at boot ("Marking
 * TSC unstable due to could not calculate TSC khz") and runs on jiffies:
 * every program run then lasts "0 ns", and bpftool hides a run_cnt that
 * the kernel did count. This asks the kernel for the field itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

/* Fill INFO for program ID; the program's fd, or -1 with errno set. */
static int prog_info(unsigned int id, struct bpf_prog_info *info)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_id = id;
	fd = syscall(__NR_bpf, BPF_PROG_GET_FD_BY_ID, &attr, sizeof(attr));
	if (fd < 0)
		return -1;
	memset(info, 0, sizeof(*info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (unsigned long)info;
	if (syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)))
		return -1;
	return fd;
}

int main(int argc, char **argv)
{
	struct bpf_prog_info info;
	char *end;
	long id;
	int fd;

	id = argc == 2 ? strtol(argv[1], &end, 10) : 0;
	if (id <= 0 || *end) {
		fprintf(stderr, "usage: %s PROG_ID\n", argv[0]);
		return 2;
	}
	fd = prog_info(id, &info);
	if (fd < 0) {
		fprintf(stderr, "runcnt: program %ld: %s\n", id, strerror(errno));
		return 1;
	}
	printf("%llu\n", (unsigned long long)info.run_cnt);
	close(fd);
	return 0;
}
