/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sci-run's user-notification supervisor (--record, --name-kills). */
#ifndef SCI_RUN_NOTIFY_H
#define SCI_RUN_NOTIFY_H

#include <linux/seccomp.h>
#include <sys/types.h>

struct sn_shared {
	int fd;		/* the child's listener fd number, -1 until loaded */
	int ack;	/* set by the parent once it holds a copy */
};

struct sn_shared *sn_shared_new(void);
void sn_child_handoff(struct sn_shared *s, int fd);
/* The listener, copied from the child (pidfd_getfd), or a negative errno. */
int sn_parent_take(struct sn_shared *s, pid_t pid);

typedef int (*sn_handler)(void *arg, const struct seccomp_notif *req,
			  struct seccomp_notif_resp *resp);
/* Answer notifications until @child has exited (not reaped). */
int sn_serve_one(int listener, sn_handler fn, void *arg, int timeout_ms);
int sn_serve_until_exit(int listener, pid_t child, sn_handler fn, void *arg);
/* Keep answering in a detached process while descendants use the filter. */
void sn_serve_rest_in_background(int listener, sn_handler fn, void *arg);
void sn_syscall_name(const struct seccomp_notif *req, char *buf, size_t len);

struct sn_kills {
	pid_t child;
	int child_killed;
	char child_msg[160];
	unsigned int nsent;
	pid_t sent[64];
};
int sn_kill_handler(void *arg, const struct seccomp_notif *req,
		    struct seccomp_notif_resp *resp);

#define SN_NR_MAX 1024
struct sn_record {
	unsigned long count[SN_NR_MAX];
	unsigned long other;
};
int sn_record_handler(void *arg, const struct seccomp_notif *req,
		      struct seccomp_notif_resp *resp);
int sn_record_write(const struct sn_record *r, const char *path,
		    char *const argv[]);

#endif
