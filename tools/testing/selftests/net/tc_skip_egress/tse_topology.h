/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TSE_TOPOLOGY_H
#define __TSE_TOPOLOGY_H

#include "tse_internal.h"

#pragma GCC visibility push(hidden)

const char *tse_dev(struct tse_test *t, enum tse_dev dev);
enum tse_ns tse_dev_ns(struct tse_test *t, enum tse_dev dev);
const char *tse_addr(struct tse_test *t, enum tse_dev dev);
int tse_enter(struct tse_test *t, enum tse_ns ns);
void tse_leave(struct tse_test *t);
int tse_netns_new(struct tse_test *t);
int tse_run_batch(int nsfd, const char *tool, const char *cmds, char *err,
		  size_t errlen);
int tse_run_listing(int nsfd, const char *tool, const char *cmds, char *out,
		    size_t outlen);
void tse_chomp(char *s);
__printf(4, 5) int tse_queue(struct tse_test *t, enum tse_ns ns,
			     enum tse_tool tool, const char *fmt, ...);
#define tse_tc_queue(t, ns, ...)	tse_queue(t, ns, TSE_TC, __VA_ARGS__)
#define tse_ip_queue(t, ns, ...)	tse_queue(t, ns, TSE_IP, __VA_ARGS__)
int tse_tc_flush(struct tse_test *t);
int tse_tc_batch(struct tse_test *t, enum tse_ns ns, const char *cmds);
int tse_count_at(struct tse_test *t, enum tse_dev dev, bool egress,
		 struct bpf_program *prog, int prio);
int tse_root_qdisc(struct tse_test *t, enum tse_dev dev);
int tse_root_qdisc_queue(struct tse_test *t, enum tse_dev dev);
int tse_count_at_root(struct tse_test *t, enum tse_dev dev,
		      struct bpf_program *prog);
struct bpf_link *tse_tcx_link(struct bpf_program *prog, int ifindex);
int tse_attach_tcx(struct tse_test *t, enum tse_dev dev,
		   struct bpf_program *prog);
int tse_attach_xdp(struct tse_test *t, enum tse_dev dev, struct bpf_program *prog);
int tse_u32_match(struct tse_test *t, int l4, int port, char *buf, int len);
int tse_mirred_filter(struct tse_test *t, enum tse_dev dev,
		      const char *parent, int prio, int l4, int port,
		      enum tse_dev ifb);
int tse_mirred_filter_queue(struct tse_test *t, enum tse_dev dev,
			    const char *parent, int prio, int l4, int port,
			    const char *verb, enum tse_dev ifb);
int tse_topology_init(struct tse_test *t);
int tse_topology_create(struct tse_test *t);
int tse_topology_attach(struct tse_test *t);
void tse_topology_destroy(struct tse_test *t);

#pragma GCC visibility pop

#endif /* __TSE_TOPOLOGY_H */
