// jstat ships no types and @types/jstat does not exist: declare only what src/stats uses.
declare module 'jstat' {
  interface StudentT {
    /** Quantile (inverse CDF) of Student's t with `dof` degrees of freedom. */
    inv(probability: number, dof: number): number;
  }
  const jStat: {
    studentt: StudentT;
    mean(values: number[]): number;
    median(values: number[]): number;
    /** Standard deviation; `sample` true divides by n − 1. */
    stdev(values: number[], sample?: boolean): number;
  };
  export default jStat;
}
