/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TSE_ORACLES_H
#define __TSE_ORACLES_H

#include "tse_internal.h"

#pragma GCC visibility push(hidden)

/* The fields of struct tse_fields, in its order. */
enum tse_field_id {
	TSE_FIELD_MARK,
	TSE_FIELD_PRIORITY,
	TSE_FIELD_TC_INDEX,
	TSE_FIELD_INGRESS_IFINDEX,
	TSE_FIELD_TSTAMP_TYPE,
	TSE_FIELD_PKT_TYPE,
	TSE_FIELD_QUEUE_MAPPING,
	TSE_FIELD_IFINDEX,
	TSE_FIELD_TC_CLASSID,
	TSE_FIELD_PROTOCOL,
	TSE_FIELD_VLAN_PRESENT,
	TSE_FIELD_VLAN_TCI,
	TSE_NR_FIELDS,
};

struct tse_field {
	const char *name;
	size_t offset;
};

extern const struct tse_field tse_fields[TSE_NR_FIELDS];

const unsigned int *tse_bpf_row(struct tse_test *t, enum tse_hook hook,
				enum tse_flow flow);
struct tse_devstats tse_moved(struct tse_test *t, enum tse_dev dev);
long long tse_moved_class(struct tse_test *t, enum tse_dev dev,
			  unsigned int minor);
long long tse_background(struct tse_test *t, enum tse_hook hook);
void tse_expect_quiet(struct tse_test *t);
void tse_expect_sends_freed(struct tse_test *t);
void tse_expect_ifb_accounted(struct tse_test *t);
void tse_expect_net_ctx_cleared(struct tse_test *t);
void tse_expect_hook(struct tse_test *t, const char *what,
		     enum tse_hook hook, enum tse_flow flow,
		     unsigned int want);
void tse_expect_no_loop(struct tse_test *t, enum tse_flow flow);
void tse_expect_ifb_kept(struct tse_test *t);
void tse_expect_ifb_once(struct tse_test *t, enum tse_dev ifb);
void tse_expect_redirected(struct tse_test *t);
void tse_expect_clsact(struct tse_test *t, enum tse_dev dev,
		       enum tse_hook hook);
void tse_expect_delivered(struct tse_test *t, enum tse_flow flow);
void tse_expect_peer_rx(struct tse_test *t, unsigned int flows);
void tse_expect_forwarded_once(struct tse_test *t);
void tse_expect_delivery(struct tse_test *t);
void tse_expect_not_redirected(struct tse_test *t, enum tse_flow flow);
void tse_expect_root_qdisc_once(struct tse_test *t);
void tse_expect_root_actions(struct tse_test *t);
void tse_expect_root_class(struct tse_test *t, enum tse_dev dev);
void tse_expect_root_default_class(struct tse_test *t, enum tse_dev dev, int pkts,
				   int fences, const struct tse_meaning *more,
				   const struct tse_meaning *fewer);
unsigned int tse_ethertype(struct tse_test *t);
void tse_field_row(struct tse_test *t, enum tse_hook hook,
		   enum tse_field_id field, unsigned int *row);
void tse_expect_fields_unset(struct tse_test *t);
void tse_expect_peer_fields(struct tse_test *t);
void tse_expect_sent_fields(struct tse_test *t, enum tse_hook hook, enum tse_dev dev,
			    int iif, unsigned int mark, const char *where);
void tse_expect_received_fields(struct tse_test *t, enum tse_hook hook, enum tse_dev dev,
				unsigned int pkt_type, const char *where);
void tse_expect_split_fields(struct tse_test *t, enum tse_hook hook,
			     const enum tse_dev dev[2], const enum tse_dev iif[2],
			     unsigned int mark, const char *where);
void tse_expect_two_homes(struct tse_test *t);
void tse_expect_gso_once(struct tse_test *t);
void tse_expect_batched(struct tse_test *t);
void tse_expect_shaped(struct tse_test *t);
void tse_expect_stream(struct tse_test *t);
void tse_expect_xmit_limit_logged(struct tse_test *t);
void tse_kernel_log_start(struct tse_test *t);
void tse_kernel_log_check(struct tse_test *t);

#pragma GCC visibility pop

#endif /* __TSE_ORACLES_H */
