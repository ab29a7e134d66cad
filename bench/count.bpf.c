// SPDX-License-Identifier: GPL-2.0
/*
 * A pass-through classifier for the benchmark: it matches nothing, so the
 * filter walk goes on. With kernel.bpf_stats_enabled=1 its run_cnt
 * (read by bench/runcnt) is the number of times the egress filter list was
 * entered.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int bench_count(struct __sk_buff *skb)
{
	return TC_ACT_UNSPEC;
}

char _license[] SEC("license") = "GPL";
