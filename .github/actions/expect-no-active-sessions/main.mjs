// The check happens in post.mjs, at the end of the job.
console.log(
  'At the end of the job, after the post steps of the action under test, this checks that no session is left running.',
);
